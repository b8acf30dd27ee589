import { redisUrl, removeKeysUnder } from '@spam-check/test-support';
import { Redis } from 'ioredis';

/**
 * Removes what a test run wrote to the shared Redis: every key under its prefixes. Each end-to-end test gives
 * every service a prefix of its own run (auth, gateway, the detectors' feedback records) and calls this in
 * `afterAll`, so that runs leave nothing behind.
 */
export async function removeRunKeys(...prefixes: string[]): Promise<void> {
  const redis = new Redis(redisUrl());
  try {
    for (const prefix of prefixes) await removeKeysUnder(redis, prefix);
  } finally {
    redis.disconnect();
  }
}

/** Every string a key holds (its value, or its members, fields and values), whatever its type. */
export async function stringsOf(redis: Redis, key: string): Promise<string[]> {
  const type = await redis.type(key);
  if (type === 'string') return [(await redis.get(key)) ?? ''];
  if (type === 'hash') return Object.entries(await redis.hgetall(key)).flat();
  if (type === 'zset') return redis.zrange(key, 0, -1);
  if (type === 'list') return redis.lrange(key, 0, -1);
  if (type === 'set') return redis.smembers(key);
  return [`unread type ${type}`];
}
