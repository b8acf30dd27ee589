import { keysUnder, redisUrl } from '@spam-check/test-support';
import { Redis } from 'ioredis';
import { hashToken } from '../../src/domain/tokens';
import { passwordGrant, refreshGrant, startAuth, type Harness } from './harness';

describe('what the Redis store keeps', () => {
  let h: Harness;
  let redis: Redis;
  beforeEach(async () => {
    h = await startAuth('redis', {
      AUTH_ACCESS_TOKEN_LIFETIME_SECONDS: '600',
      AUTH_REFRESH_TOKEN_LIFETIME_SECONDS: '7200',
    });
    redis = new Redis(redisUrl());
  });
  afterEach(async () => {
    redis.disconnect();
    await h.stop();
  });

  async function dump(): Promise<Map<string, string>> {
    const keys = await keysUnder(redis, h.prefix);
    const entries = new Map<string, string>();
    for (const key of keys) {
      const type = await redis.type(key);
      const value =
        type === 'string'
          ? await redis.get(key)
          : type === 'hash'
            ? JSON.stringify(await redis.hgetall(key))
            : JSON.stringify(await redis.smembers(key));
      entries.set(key, value ?? '');
    }
    return entries;
  }

  it('when tokens are issued and rotated, no token, secret or password is stored in clear', async () => {
    const first = (await passwordGrant(h)).body;
    const second = (await refreshGrant(h, first.refresh_token)).body;
    const entries = await dump();
    expect(entries.size).toBeGreaterThan(0);
    const clear = [first.access_token, first.refresh_token, second.access_token, second.refresh_token];
    for (const [key, value] of entries)
      for (const secret of [...clear, 'app-secret', 'gateway-test-secret', 'alice-password']) {
        expect(key).not.toContain(secret);
        expect(value).not.toContain(secret);
      }
    expect(entries.has(`${h.prefix}at:${hashToken(second.access_token)}`)).toBe(true);
    expect(entries.has(`${h.prefix}rt:${hashToken(second.refresh_token)}`)).toBe(true);
  });

  it('when tokens are stored, each has a Redis TTL equal to its lifetime', async () => {
    const token = (await passwordGrant(h)).body;
    const accessTtl = await redis.ttl(`${h.prefix}at:${hashToken(token.access_token)}`);
    const refreshTtl = await redis.ttl(`${h.prefix}rt:${hashToken(token.refresh_token)}`);
    expect(accessTtl).toBeGreaterThanOrEqual(598);
    expect(accessTtl).toBeLessThanOrEqual(600);
    expect(refreshTtl).toBeGreaterThanOrEqual(7198);
    expect(refreshTtl).toBeLessThanOrEqual(7200);
  });

  it('when clients and users are stored, their secrets are scrypt hashes with the configured cost', async () => {
    const client = JSON.parse((await redis.get(`${h.prefix}client:app`))!);
    const user = JSON.parse((await redis.get(`${h.prefix}user:alice`))!);
    expect(client.secretHash).toMatch(/^scrypt\$1024\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(user.passwordHash).toMatch(/^scrypt\$1024\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
  });
});
