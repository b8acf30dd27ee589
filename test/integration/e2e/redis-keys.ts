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
