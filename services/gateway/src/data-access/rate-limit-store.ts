import { AppError } from '@spam-check/service-kit';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Result } from 'ioredis';
import type { RedisClient } from '@spam-check/service-kit';
import type { RateLimitStore } from '../domain/rate-limit';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    /** `rate-limit-reserve.lua`: answers the counter after the reservation, the number granted and the ms left. */
    spamCheckRateLimitReserve(
      key: string,
      windowMs: number,
      want: number,
      limit: number,
    ): Result<[number, number, number], Context>;
  }
}

/** Loaded by `redisRateLimitStore`; the build copies it beside the compiled file. */
const RESERVE_SCRIPT = join(__dirname, 'rate-limit-reserve.lua');

/** The largest batch one instance reserves ahead, and its share of the limit (1 %). */
const MAX_BATCH = 100;
const BATCH_SHARE = 100;

/** Requests of the current window this instance has reserved in Redis and not yet used. */
interface Lease {
  /** Position in the window (1-based) of the next request served from the lease. */
  next: number;
  /** Last reserved position; `next > last` means the lease is used up. */
  last: number;
  /** Size of the last reservation; a client that uses its lease up asks for twice as many next time. */
  batch: number;
  expiresAt: number;
  /** The reservation in flight: concurrent requests of the client wait for it instead of asking again. */
  pending?: Promise<void>;
}

/**
 * Shared counters in Redis, so every gateway replica counts against the same limit. A client that keeps
 * sending takes its allowance in growing batches (1, 2, 4, ... up to 1 % of the limit and at most 100): one
 * round trip reserves them, and this instance spends them without asking Redis again. What it costs: a
 * replica can hold up to that batch unused until the window ends, so a client spread over replicas may be
 * refused up to 1 % early per replica; it can never pass the limit. Limits below 200 reserve one request at
 * a time, exactly as a plain counter. Once the window is spent the refusals are answered here until it ends
 * (a fixed window's count only grows). Redis unreachable is SERVICE_UNAVAILABLE (fail closed, like token
 * validation): the limit is never silently lifted.
 */
export function redisRateLimitStore(redis: RedisClient, prefix: string, limit: number): RateLimitStore {
  redis.defineCommand('spamCheckRateLimitReserve', {
    numberOfKeys: 1,
    lua: readFileSync(RESERVE_SCRIPT, 'utf8'),
  });
  const reserve = (key: string, windowMs: number, want: number, limit: number) =>
    redis.spamCheckRateLimitReserve(key, windowMs, want, limit);
  const maxBatch = Math.max(1, Math.min(MAX_BATCH, Math.floor(limit / BATCH_SHARE)));
  const leases = new Map<string, Lease>();
  let nextSweep = 0;

  const unavailable = (error: unknown) =>
    new AppError('SERVICE_UNAVAILABLE', { cause: error, internal: 'rate limit store unavailable' });

  const renew = (clientId: string, windowMs: number, previous: Lease | undefined): Promise<void> => {
    const batch = previous ? Math.min(maxBatch, previous.batch * 2) : 1;
    const placeholder: Lease = previous ?? { next: 1, last: 0, batch, expiresAt: Infinity };
    const pending = reserve(`${prefix}ratelimit:${clientId}`, windowMs, batch, limit).then(
      ([count, granted, ttl]) => {
        leases.set(clientId, {
          next: count - granted + 1,
          last: count,
          batch,
          expiresAt: Date.now() + ttl,
        });
      },
      (error: unknown) => {
        leases.delete(clientId);
        throw unavailable(error);
      },
    );
    leases.set(clientId, { ...placeholder, pending });
    return pending;
  };

  return {
    async hit(clientId, windowMs) {
      for (;;) {
        const now = Date.now();
        if (now >= nextSweep) {
          for (const [key, lease] of leases) if (!lease.pending && lease.expiresAt <= now) leases.delete(key);
          nextSweep = now + windowMs;
        }
        let lease = leases.get(clientId);
        if (lease && !lease.pending && lease.expiresAt <= now) lease = undefined;
        if (lease?.pending) {
          await lease.pending;
          continue;
        }
        if (lease && lease.next <= lease.last) return { count: lease.next++, resetMs: lease.expiresAt - now };
        if (lease && lease.last >= limit) return { count: limit + 1, resetMs: lease.expiresAt - now };
        await renew(clientId, windowMs, lease);
      }
    },
    // A batch reserves its items in Redis directly, in one round trip; this instance's lease is left as it is
    // (its requests are already counted), and finds the window spent at its next renewal if the batch took
    // the rest.
    async take(clientId, windowMs, want) {
      const lease = leases.get(clientId);
      const now = Date.now();
      if (lease && !lease.pending && lease.expiresAt > now && lease.last >= limit && lease.next > lease.last)
        return { count: limit, granted: 0, resetMs: lease.expiresAt - now };
      const [count, granted, ttl] = await reserve(
        `${prefix}ratelimit:${clientId}`,
        windowMs,
        want,
        limit,
      ).catch((error: unknown) => {
        throw unavailable(error);
      });
      return { count, granted, resetMs: ttl };
    },
  };
}

/** Embedded mode: counters in this process only (one gateway). */
export function memoryRateLimitStore(limit: number, now: () => number = Date.now): RateLimitStore {
  const windows = new Map<string, { count: number; endsAt: number }>();
  let nextSweep = 0;
  const windowOf = (clientId: string, windowMs: number) => {
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
    return { window, resetMs: window.endsAt - time };
  };
  return {
    async hit(clientId, windowMs) {
      const { window, resetMs } = windowOf(clientId, windowMs);
      window.count += 1;
      return { count: window.count, resetMs };
    },
    async take(clientId, windowMs, want) {
      const { window, resetMs } = windowOf(clientId, windowMs);
      const granted = Math.max(0, Math.min(want, limit - window.count));
      window.count += granted;
      return { count: window.count, granted, resetMs };
    },
  };
}
