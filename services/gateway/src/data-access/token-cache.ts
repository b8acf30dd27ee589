import type { Introspection } from '@spam-check/contracts';
import { LRUCache } from 'lru-cache';

/**
 * Introspection results by token hash, bounded in time (the configured TTL, never beyond the token's own
 * expiry) and in size (the least recently used entry goes first; `lru-cache`). Expired entries go when they
 * are next read, on no timer.
 */
export class TokenCache {
  private readonly entries: LRUCache<string, Introspection> | undefined;

  constructor(
    maxEntries: number,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {
    // A TTL of 0 switches the cache off (every token is introspected).
    if (ttlMs > 0) this.entries = new LRUCache({ max: maxEntries, ttlResolution: 0, perf: { now } });
  }

  get size(): number {
    return this.entries?.size ?? 0;
  }

  get(key: string): Introspection | undefined {
    return this.entries?.get(key);
  }

  set(key: string, value: Introspection): void {
    const ttl = Math.min(this.ttlMs, value.active ? value.exp * 1000 - this.now() : Infinity);
    // lru-cache serves an entry until its age is over its TTL; ours is gone at its TTL, as a token at its `exp`.
    if (ttl > 1) this.entries?.set(key, value, { ttl: ttl - 1 });
  }

  delete(key: string): void {
    this.entries?.delete(key);
  }

  clear(): void {
    this.entries?.clear();
  }
}
