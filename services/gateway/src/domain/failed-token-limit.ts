import { AppError } from '@spam-check/service-kit';
import type { RateLimitStore } from './rate-limit';

export interface FailedTokenLimit {
  /**
   * Before an introspection for the address: the function to call once it is answered, or RATE_LIMITED
   * (with Retry-After) while the address is over its failures and its one introspection is in flight.
   */
  admit(address: string): () => void;
  /**
   * Counts a token the auth service did not know (unknown, expired, revoked) for the address; rejects with
   * RATE_LIMITED when the address was already over its failures (the token's answer is 429, not 401).
   */
  record(address: string): Promise<void>;
}

/**
 * Unknown bearer tokens per client address: each costs an introspection at the auth service, so an address
 * gets `limit` of them per window of `windowSeconds`. After that, the address is blocked until the window
 * ends: its tokens this gateway has not cached are introspected one at a time (others meanwhile get 429
 * RATE_LIMITED before any introspection), and an unknown one gets 429, not 401. A valid token from the same
 * address (another client behind the same NAT or proxy) still gets its answer: the flood costs the attacker
 * its concurrency and keeps auth's load at one introspection in flight per blocked address, and never costs
 * a client with a valid token more than a retry. Cached tokens cost nothing and get their answer. The
 * failures are counted in the store (Redis: shared by all replicas); the block is kept in memory: a replica
 * that has not yet seen the address fail introspects freely until it learns. A limit of 0 turns it off.
 */
export function failedTokenLimit(
  store: RateLimitStore,
  limit: number,
  windowSeconds: number,
): FailedTokenLimit {
  const blockedUntil = new Map<string, number>();
  const busy = new Set<string>();
  let nextSweep = 0;
  const blockedFor = (address: string): number => {
    const until = blockedUntil.get(address);
    if (until === undefined) return 0;
    const left = until - Date.now();
    if (left <= 0) blockedUntil.delete(address);
    return Math.max(0, left);
  };
  const nothing = () => undefined;
  const refusal = (address: string, left: number) =>
    new AppError('RATE_LIMITED', {
      headers: { 'Retry-After': String(Math.max(1, Math.ceil(left / 1000))) },
      internal: `over ${limit} unknown tokens in ${windowSeconds} s from ${address}`,
    });
  return {
    admit(address) {
      if (limit === 0) return nothing;
      const left = blockedFor(address);
      if (left === 0) return nothing;
      if (busy.has(address)) throw refusal(address, left);
      busy.add(address);
      return () => busy.delete(address);
    },
    async record(address) {
      if (limit === 0) return;
      const before = blockedFor(address);
      const window = await store.hit(address, windowSeconds * 1000);
      const now = Date.now();
      if (now >= nextSweep) {
        for (const [key, until] of blockedUntil) if (until <= now) blockedUntil.delete(key);
        nextSweep = now + windowSeconds * 1000;
      }
      if (window.count >= limit) blockedUntil.set(address, now + window.resetMs);
      if (before > 0) throw refusal(address, before);
    },
  };
}
