import { AppError } from '@spam-check/service-kit';
import type { Redis } from 'ioredis';
import type { WindowCount } from '../domain/rate-limit';

/** Counts a client's requests in fixed windows of `windowMs`. */
export interface RateLimitStore {
  hit(clientId: string, windowMs: number): Promise<WindowCount>;
}

// INCR and PEXPIRE in one round trip, atomically: the first hit of a window starts its expiry.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}
`;

/**
 * Shared counters in Redis, so every gateway replica counts against the same limit. Redis unreachable is
 * SERVICE_UNAVAILABLE (fail closed, like token validation): the limit is never silently lifted.
 */
export function redisRateLimitStore(redis: Redis, prefix: string): RateLimitStore {
  redis.defineCommand('spamCheckRateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
  const hit = (
    redis as unknown as Record<string, (key: string, windowMs: number) => Promise<[number, number]>>
  ).spamCheckRateLimitHit;
  return {
    async hit(clientId, windowMs) {
      try {
        const [count, resetMs] = await hit!.call(redis, `${prefix}ratelimit:${clientId}`, windowMs);
        return { count, resetMs };
      } catch (error) {
        throw new AppError('SERVICE_UNAVAILABLE', { cause: error, internal: 'rate limit store unavailable' });
      }
    },
  };
}

/** Embedded mode: counters in this process only (one gateway). */
export function memoryRateLimitStore(now: () => number = Date.now): RateLimitStore {
  const windows = new Map<string, { count: number; endsAt: number }>();
  let nextSweep = 0;
  return {
    async hit(clientId, windowMs) {
      const time = now();
      if (time >= nextSweep) {
        for (const [key, window] of windows) if (window.endsAt <= time) windows.delete(key);
        nextSweep = time + windowMs;
      }
      let window = windows.get(clientId);
      if (!window || window.endsAt <= time) {
        window = { count: 0, endsAt: time + windowMs };
        windows.set(clientId, window);
      }
      window.count += 1;
      return { count: window.count, resetMs: window.endsAt - time };
    },
  };
}
