import { randomBytes, randomUUID } from 'node:crypto';
import { keysUnder, redisUrl, removeKeysUnder } from '@spam-check/test-support';
import { Redis } from 'ioredis';
import { redisConsoleSessions, type ConsoleSession } from '../../src';

describe('console sessions in Redis', () => {
  const prefix = `test:console-sessions:${randomUUID()}:`;
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(redisUrl());
  });
  afterAll(async () => {
    await removeKeysUnder(redis, prefix);
    await redis.quit();
  });

  const session = (): ConsoleSession => ({
    username: 'operator-anna',
    accessToken: `access-${randomUUID()}`,
    refreshToken: `refresh-${randomUUID()}`,
    accessExpiresAt: Date.now() + 60_000,
    csrf: `csrf-${randomUUID()}`,
    createdAt: Date.now(),
  });

  it('when a session is stored, Redis holds neither the cookie id nor any token or name, and the cookie reads it back', async () => {
    const own = `${prefix}stored:`;
    const store = redisConsoleSessions(redis, own);
    const cookie = randomBytes(32).toString('base64url');
    const stored = session();
    await store.write(cookie, stored, 60_000);

    const keys = await keysUnder(redis, own);
    expect(keys).toHaveLength(1);
    const raw = (await redis.get(keys[0] as string)) as string;
    for (const secret of [cookie, stored.accessToken, stored.refreshToken, stored.csrf, stored.username])
      expect(`${keys[0]} ${raw}`).not.toContain(secret);
    expect(await store.read(cookie)).toEqual(stored);
    expect(await redis.pttl(keys[0] as string)).toBeGreaterThan(50_000);
  });

  it('when the stored value was changed, it reads as no session', async () => {
    const own = `${prefix}changed:`;
    const store = redisConsoleSessions(redis, own);
    const cookie = randomBytes(32).toString('base64url');
    await store.write(cookie, session(), 60_000);
    const [key] = await keysUnder(redis, own);
    const raw = Buffer.from((await redis.get(key as string)) as string, 'base64url');
    raw[raw.length - 1] = (raw[raw.length - 1] as number) ^ 1;
    await redis.set(key as string, raw.toString('base64url'), 'PX', 60_000);

    expect(await store.read(cookie)).toBeUndefined();
    expect(await store.read(randomBytes(32).toString('base64url'))).toBeUndefined();
  });
  it('lets one replica at a time hold a refresh, and a request only extends a session, never brings one back', async () => {
    const own = `${prefix}claims:`;
    const [one, other] = [redisConsoleSessions(redis, own), redisConsoleSessions(redis, own)];
    const cookie = randomBytes(32).toString('base64url');
    expect(await one.claimRefresh(cookie, 5_000)).toBe(true);
    expect(await other.claimRefresh(cookie, 5_000)).toBe(false);
    expect(await other.claimRefresh(randomBytes(32).toString('base64url'), 5_000)).toBe(true);
    await one.releaseRefresh(cookie);
    expect(await other.claimRefresh(cookie, 5_000)).toBe(true);

    const stored = session();
    await one.write(cookie, stored, 1_000);
    await other.touch(cookie, 60_000);
    expect(await one.read(cookie)).toEqual(stored);
    const [key] = (await keysUnder(redis, own)).filter((name) => name.includes('console-session:'));
    expect(await redis.pttl(key as string)).toBeGreaterThan(50_000);
    await one.remove(cookie);
    await other.touch(cookie, 60_000);
    expect(await one.read(cookie)).toBeUndefined();
    expect(await redis.exists(key as string)).toBe(0);
  });
});
