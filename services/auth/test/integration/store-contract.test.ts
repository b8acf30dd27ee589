import { randomUUID } from 'node:crypto';
import type { RevocationMessage } from '@spam-check/contracts';
import { connectRedis, createLogger } from '@spam-check/service-kit';
import { redisUrl } from '@spam-check/test-support';
import { Redis } from 'ioredis';
import { MemoryStore } from '../../src/data-access/memory-store';
import { RedisStore } from '../../src/data-access/redis-store';
import type { AuthStore, RotatedTokens } from '../../src/domain/store';
import { nowSeconds } from '../../src/domain/tokens';
import { deletePrefix, uniqueNames } from './harness';

interface Subject {
  store: AuthStore;
  /** Collects what the store publishes on its revocation channel. */
  published: RevocationMessage[];
  close: () => Promise<void>;
}

const silent = createLogger({ service: 'auth-test', level: 'silent' });

async function memorySubject(): Promise<Subject> {
  const store = new MemoryStore();
  const published: RevocationMessage[] = [];
  store.revocations.on('revocation', (message: RevocationMessage) => published.push(message));
  return { store, published, close: () => store.close() };
}

async function redisSubject(): Promise<Subject> {
  const { prefix, channel } = uniqueNames();
  const connection = await connectRedis({
    target: { kind: 'single', url: redisUrl() },
    name: 'redis',
    logger: silent,
    timeoutMs: 1000,
  });
  const store = new RedisStore({ connection, prefix, channel, timeoutMs: 1000 });
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

function tokens(family: string, lifetime = 60, clientId = 'c'): RotatedTokens {
  const iat = nowSeconds();
  const base = { clientId, username: 'u', scope: ['spam:check'], iat, family };
  return {
    accessHash: randomUUID(),
    access: { ...base, exp: iat + lifetime },
    refresh: { hash: randomUUID(), record: { ...base, exp: iat + lifetime * 10, spent: false } },
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

  it('when a client is created, only an id that is free is written, also by creates at the same time', async () => {
    const client = (secretHash: string) => ({ id: 'new', secretHash, grants: ['password'], scopes: ['x'] });
    const results = await Promise.all(
      ['h1', 'h2', 'h3', 'h4'].map((hash) => store.createClient(client(hash))),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const kept = await store.getClient('new');
    expect(kept?.secretHash).toBe(`h${results.indexOf(true) + 1}`);
    expect(await store.createClient(client('h5'))).toBe(false);
    expect((await store.listClients()).map((c) => [c.id, c.secretHash])).toEqual([['new', kept?.secretHash]]);
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
    expect(await store.getRefreshToken(issued.refresh.hash)).toEqual(issued.refresh.record);
    expect(await store.getAccessToken('other')).toBeUndefined();
  });

  it('when a refresh token is rotated, the old one is spent and the new pair joins the family', async () => {
    const first = tokens('f2');
    await store.saveTokens(first);
    const second = tokens('f2');
    expect(await store.rotateRefreshToken(first.refresh.hash, second)).toEqual({ outcome: 'rotated' });
    expect((await store.getRefreshToken(first.refresh.hash))?.spent).toBe(true);
    expect(await store.getAccessToken(second.accessHash)).toEqual(second.access);

    const replay = await store.rotateRefreshToken(first.refresh.hash, tokens('f2'));
    expect(replay.outcome).toBe('reused');
    expect(replay.outcome === 'reused' && replay.revokedAccessHashes.sort()).toEqual(
      [first.accessHash, second.accessHash].sort(),
    );
    expect(await store.getAccessToken(second.accessHash)).toBeUndefined();
    expect(await store.getRefreshToken(second.refresh.hash)).toBeUndefined();
    expect(await store.rotateRefreshToken('unknown', tokens('f2'))).toEqual({ outcome: 'unknown' });
  });

  it('when many rotations of one refresh token race, exactly one rotates', async () => {
    const first = tokens('f3');
    await store.saveTokens(first);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => store.rotateRefreshToken(first.refresh.hash, tokens('f3'))),
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
    expect(await store.getRefreshToken(a.refresh.hash)).toBeDefined();
    expect(await store.revokeFamily('f5')).toEqual([b.accessHash]);
    expect(await store.getRefreshToken(b.refresh.hash)).toBeUndefined();
    expect(await store.getRefreshToken(a.refresh.hash)).toBeDefined();
  });

  it('when a token lifetime is over, it is gone', async () => {
    const short = tokens('f6', 1);
    await store.saveTokens(short);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect(await store.getAccessToken(short.accessHash)).toBeUndefined();
  });

  it('when attempts are reserved, each takes a slot until one key is over its limit, which takes none', async () => {
    const limits = [
      { key: 'user', max: 2 },
      { key: 'ip', max: 3 },
    ];
    expect(await store.reserveAttempts(limits, 60)).toEqual({ allowed: true });
    expect(await store.reserveAttempts(limits, 60)).toEqual({ allowed: true });
    const refused = await store.reserveAttempts(limits, 60);
    expect(refused.allowed).toBe(false);
    expect(!refused.allowed && refused.retryAfterSeconds).toBeGreaterThan(55);
    expect(!refused.allowed && refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    // The refused attempt took no slot from the IP: one is left there for another user.
    expect(await store.reserveAttempts([{ key: 'other', max: 2 }, limits[1]!], 60)).toEqual({
      allowed: true,
    });
    expect((await store.reserveAttempts([{ key: 'other', max: 2 }, limits[1]!], 60)).allowed).toBe(false);
    await store.releaseAttempts(['ip']);
    await store.resetAttempts('user');
    expect(await store.reserveAttempts(limits, 60)).toEqual({ allowed: true });
  });

  it('when 50 reservations race for a limit of 5, exactly 5 are allowed', async () => {
    const verdicts = await Promise.all(
      Array.from({ length: 50 }, () => store.reserveAttempts([{ key: 'burst', max: 5 }], 60)),
    );
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(5);
  });

  it('when a released counter is already gone, it does not go below zero', async () => {
    await store.releaseAttempts(['never-reserved']);
    const verdicts = [];
    for (let i = 0; i < 2; i++)
      verdicts.push(await store.reserveAttempts([{ key: 'never-reserved', max: 1 }], 60));
    expect(verdicts.map((v) => v.allowed)).toEqual([true, false]);
  });

  it('when a rotation is undone, the old token is unspent again and the successor is gone', async () => {
    const first = tokens('f7');
    await store.saveTokens(first);
    const second = tokens('f7');
    await store.rotateRefreshToken(first.refresh.hash, second);
    expect(await store.undoRotation(first.refresh.hash, tokens('f7'))).toBe(false);
    expect(await store.undoRotation(first.refresh.hash, second)).toBe(true);
    expect((await store.getRefreshToken(first.refresh.hash))?.spent).toBe(false);
    expect(await store.getRefreshToken(second.refresh.hash)).toBeUndefined();
    expect(await store.getAccessToken(second.accessHash)).toBeUndefined();
    expect(await store.undoRotation(first.refresh.hash, second)).toBe(false);
    // The token rotates again as if the first rotation never happened, and the family holds no stale member.
    const third = tokens('f7');
    expect(await store.rotateRefreshToken(first.refresh.hash, third)).toEqual({ outcome: 'rotated' });
    expect((await store.revokeFamily('f7')).sort()).toEqual([first.accessHash, third.accessHash].sort());
  });

  it('when the successor was already used, the rotation is not undone', async () => {
    const first = tokens('f8');
    await store.saveTokens(first);
    const second = tokens('f8');
    await store.rotateRefreshToken(first.refresh.hash, second);
    await store.rotateRefreshToken(second.refresh.hash, tokens('f8'));
    expect(await store.undoRotation(first.refresh.hash, second)).toBe(false);
    expect((await store.getRefreshToken(first.refresh.hash))?.spent).toBe(true);
  });

  it('when a client is removed, its access tokens are not active and revoking its tokens takes every family', async () => {
    await store.saveClient({ id: 'gone', secretHash: 'h', grants: [], scopes: [] });
    await store.saveClient({ id: 'kept', secretHash: 'h', grants: [], scopes: [] });
    const mine = [tokens('g1', 60, 'gone'), tokens('g2', 60, 'gone')];
    const other = tokens('k1', 60, 'kept');
    for (const issued of [...mine, other]) await store.saveTokens(issued);
    expect(await store.getActiveAccessToken(mine[0]!.accessHash)).toEqual(mine[0]!.access);
    await store.deleteClient('gone');
    expect(await store.getActiveAccessToken(mine[0]!.accessHash)).toBeUndefined();
    expect((await store.revokeClientTokens('gone')).sort()).toEqual(mine.map((t) => t.accessHash).sort());
    expect(await store.getRefreshToken(mine[1]!.refresh.hash)).toBeUndefined();
    expect(await store.getActiveAccessToken(other.accessHash)).toEqual(other.access);
  });

  it('when tokens are saved without a refresh token, only the access token exists', async () => {
    const { refresh: _refresh, ...accessOnly } = tokens('f9');
    await store.saveTokens(accessOnly);
    expect(await store.getAccessToken(accessOnly.accessHash)).toEqual(accessOnly.access);
    expect(await store.revokeFamily('f9')).toEqual([accessOnly.accessHash]);
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
