import { AppError } from '@spam-check/service-kit';
import type { RateLimitStore } from './rate-limit';

export interface FailedTokenLimit {
  /** Throws RATE_LIMITED (with Retry-After) while the address has spent its failures of the window. */
  check(address: string): void;
  /** Counts a token the auth service did not know (unknown, expired, revoked) for the address. */
  record(address: string): Promise<void>;
}

/**
 * Unknown bearer tokens per client address: each costs an introspection at the auth service, so an address
 * gets `limit` of them per window of `windowSeconds`; after that, a token this gateway has not cached is
 * refused with 429 RATE_LIMITED before it is introspected, until the window ends. Cached tokens (a client's
 * valid token, or an unknown one already seen) still get their answer: they cost nothing. The failures are
 * counted in the store (Redis: shared by all replicas), and the refusal is answered from memory: a replica
 * that has not yet seen the address fail introspects one more token before it refuses too. A limit of 0
 * turns it off.
 */
export function failedTokenLimit(
  store: RateLimitStore,
  limit: number,
  windowSeconds: number,
): FailedTokenLimit {
  const blockedUntil = new Map<string, number>();
  let nextSweep = 0;
  return {
    check(address) {
      if (limit === 0) return;
      const until = blockedUntil.get(address);
      if (until === undefined) return;
      const left = until - Date.now();
      if (left <= 0) {
        blockedUntil.delete(address);
        return;
      }
      throw new AppError('RATE_LIMITED', {
        headers: { 'Retry-After': String(Math.max(1, Math.ceil(left / 1000))) },
        internal: `over ${limit} unknown tokens in ${windowSeconds} s from ${address}`,
      });
    },
    async record(address) {
      if (limit === 0) return;
      const window = await store.hit(address, windowSeconds * 1000);
      const now = Date.now();
      if (now >= nextSweep) {
        for (const [key, until] of blockedUntil) if (until <= now) blockedUntil.delete(key);
        nextSweep = now + windowSeconds * 1000;
      }
      if (window.count >= limit) blockedUntil.set(address, now + window.resetMs);
    },
  };
}
