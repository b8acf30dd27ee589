import { randomUUID } from 'node:crypto';
import { redisUrl } from '@spam-check/test-support';
import { Redis } from 'ioredis';
import { MemoryStore } from '../src/data-access/memory-store';
import { RedisStore } from '../src/data-access/redis-store';
import type { AuthStore, IssuedTokens, RevocationMessage } from '../src/data-access/store';
import { nowSeconds } from '../src/domain/tokens';
import { deletePrefix, uniqueNames } from './harness';

interface Subject {
  store: AuthStore;
  /** Collects what the store publishes on its revocation channel. */
  published: RevocationMessage[];
  close: () => Promise<void>;
}

async function memorySubject(): Promise<Subject> {
  const store = new MemoryStore();
  const published: RevocationMessage[] = [];
  store.revocations.on('revocation', (message: RevocationMessage) => published.push(message));
  return { store, published, close: () => store.close() };
}

async function redisSubject(): Promise<Subject> {
  const { prefix, channel } = uniqueNames();
  const store = new RedisStore({ url: redisUrl(), prefix, channel, timeoutMs: 1000 });
  await store.connect();
  const published: RevocationMessage[] = [];
  const subscriber = new Redis(redisUrl());
  subscriber.on('message', (_c: string, message: string) =>
    published.push(JSON.parse(message) as RevocationMessage),
  );
  await subscriber.subscribe(channel);
  return {
    store,
    published,
    close: async () => {
      subscriber.disconnect();
      await store.close();
      await deletePrefix(redisUrl(), prefix);
    },
  };
}

function tokens(family: string, lifetime = 60): IssuedTokens {
  const iat = nowSeconds();
  const base = { clientId: 'c', username: 'u', scope: ['spam:check'], iat, family };
  return {
    accessHash: randomUUID(),
    access: { ...base, exp: iat + lifetime },
    refreshHash: randomUUID(),
    refresh: { ...base, exp: iat + lifetime * 10, spent: false },
  };
}

const eventually = async (check: () => boolean) => {
  for (let i = 0; i < 50 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
};

describe.each([
  ['memory', memorySubject],
  ['redis', redisSubject],
] as const)('store contract: %s', (_name, make) => {
  let subject: Subject;
  let store: AuthStore;
  beforeEach(async () => {
    subject = await make();
    store = subject.store;
  });
  afterEach(async () => {
    await subject.close();
  });

  it('when clients are saved, listed and deleted, it keeps one record per id', async () => {
    await store.saveClient({ id: 'b', secretHash: 'h1', grants: ['password'], scopes: ['x'] });
    await store.saveClient({ id: 'a', secretHash: 'h2', grants: [], scopes: [] });
    await store.saveClient({ id: 'b', secretHash: 'h3', grants: ['password'], scopes: ['x'] });
    expect((await store.listClients()).map((c) => [c.id, c.secretHash])).toEqual([
      ['a', 'h2'],
      ['b', 'h3'],
    ]);
    expect(await store.deleteClient('a')).toBe(true);
    expect(await store.deleteClient('a')).toBe(false);
    expect(await store.getClient('a')).toBeUndefined();
  });

  it('when users are saved, listed and deleted, it keeps one record per username', async () => {
    await store.saveUser({ username: 'u1', passwordHash: 'p' });
    await store.saveUser({ username: 'u1', passwordHash: 'q' });
    expect(await store.listUsers()).toEqual([{ username: 'u1', passwordHash: 'q' }]);
    expect(await store.deleteUser('u1')).toBe(true);
    expect(await store.getUser('u1')).toBeUndefined();
  });

  it('when tokens are saved, they are found by hash with their records', async () => {
    const issued = tokens('f1');
    await store.saveTokens(issued);
    expect(await store.getAccessToken(issued.accessHash)).toEqual(issued.access);
    expect(await store.getRefreshToken(issued.refreshHash)).toEqual(issued.refresh);
    expect(await store.getAccessToken('other')).toBeUndefined();
  });

  it('when a refresh token is rotated, the old one is spent and the new pair joins the family', async () => {
    const first = tokens('f2');
    await store.saveTokens(first);
    const second = tokens('f2');
    expect(await store.rotateRefreshToken(first.refreshHash, second)).toEqual({ outcome: 'rotated' });
    expect((await store.getRefreshToken(first.refreshHash))?.spent).toBe(true);
    expect(await store.getAccessToken(second.accessHash)).toEqual(second.access);

    const replay = await store.rotateRefreshToken(first.refreshHash, tokens('f2'));
    expect(replay.outcome).toBe('reused');
    expect(replay.outcome === 'reused' && replay.revokedAccessHashes.sort()).toEqual(
      [first.accessHash, second.accessHash].sort(),
    );
    expect(await store.getAccessToken(second.accessHash)).toBeUndefined();
    expect(await store.getRefreshToken(second.refreshHash)).toBeUndefined();
    expect(await store.rotateRefreshToken('unknown', tokens('f2'))).toEqual({ outcome: 'unknown' });
  });

  it('when many rotations of one refresh token race, exactly one rotates', async () => {
    const first = tokens('f3');
    await store.saveTokens(first);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => store.rotateRefreshToken(first.refreshHash, tokens('f3'))),
    );
    expect(results.filter((r) => r.outcome === 'rotated')).toHaveLength(1);
  });

  it('when an access token or a family is revoked, only those tokens go', async () => {
    const a = tokens('f4');
    const b = tokens('f5');
    await store.saveTokens(a);
    await store.saveTokens(b);
    expect(await store.revokeAccessToken(a.accessHash)).toBe(true);
    expect(await store.revokeAccessToken(a.accessHash)).toBe(false);
    expect(await store.getRefreshToken(a.refreshHash)).toBeDefined();
    expect(await store.revokeFamily('f5')).toEqual([b.accessHash]);
    expect(await store.getRefreshToken(b.refreshHash)).toBeUndefined();
    expect(await store.getRefreshToken(a.refreshHash)).toBeDefined();
  });

  it('when a token lifetime is over, it is gone', async () => {
    const short = tokens('f6', 1);
    await store.saveTokens(short);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect(await store.getAccessToken(short.accessHash)).toBeUndefined();
  });

  it('when failures are recorded, they count within the window and reset', async () => {
    await store.recordFailure(['k1', 'k2'], 60);
    await store.recordFailure(['k1'], 60);
    const [k1, k2, k3] = await store.countFailures(['k1', 'k2', 'k3']);
    expect(k1?.count).toBe(2);
    expect(k1?.resetsInSeconds).toBeGreaterThan(55);
    expect(k1?.resetsInSeconds).toBeLessThanOrEqual(60);
    expect(k2?.count).toBe(1);
    expect(k3).toEqual({ count: 0, resetsInSeconds: 0 });
    await store.resetFailures('k1');
    expect((await store.countFailures(['k1']))[0]?.count).toBe(0);
  });

  it('when a revocation is published, subscribers receive the message', async () => {
    const message: RevocationMessage = {
      type: 'revocation',
      reason: 'revoked',
      access_token_sha256: ['ab'],
      revoked_at: 1,
    };
    await store.publishRevocation(message);
    await eventually(() => subject.published.length > 0);
    expect(subject.published).toEqual([message]);
  });
});
