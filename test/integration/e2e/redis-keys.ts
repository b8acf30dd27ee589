import { keysUnder, redisUrl, removeKeysUnder } from '@spam-check/test-support';
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

/**
 * The client settings of a run's clients: they live under the gateway's fixed `spam-check:client-settings:`
 * prefix, not the run's, and each client id of a run ends in `-<run>`.
 */
export async function runSettingsKeys(redis: Redis, run: string): Promise<string[]> {
  return (await keysUnder(redis, 'spam-check:client-settings:')).filter((key) => key.endsWith(`-${run}`));
}

/** What a run left in Redis: its clients' settings and every key under its prefixes. */
export async function removeRunState(run: string, ...prefixes: string[]): Promise<void> {
  const redis = new Redis(redisUrl());
  try {
    const settings = await runSettingsKeys(redis, run);
    if (settings.length > 0) await redis.unlink(...settings);
  } finally {
    redis.disconnect();
  }
  await removeRunKeys(...prefixes);
}

/** Every string a key holds (its value, or its members, fields and values), whatever its type. */
export async function stringsOf(redis: Redis, key: string): Promise<string[]> {
  const type = await redis.type(key);
  if (type === 'string') return [(await redis.get(key)) ?? ''];
  if (type === 'hash') return Object.entries(await redis.hgetall(key)).flat();
  if (type === 'zset') return redis.zrange(key, 0, -1);
  if (type === 'list') return redis.lrange(key, 0, -1);
  if (type === 'set') return redis.smembers(key);
  if (type === 'stream') return (await redis.xrange(key, '-', '+')).flat(2);
  return [`unread type ${type}`];
}
