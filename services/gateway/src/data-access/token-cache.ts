import type { Introspection } from '@spam-check/contracts';

interface Entry {
  value: Introspection;
  expiresAt: number;
  /** Read since the eviction last passed it (second chance). */
  used: boolean;
}

/**
 * Introspection results by token hash, bounded in time (the configured TTL, never beyond the token's own
 * expiry) and in size. Over the size bound the oldest entry goes, unless it was read since the eviction last
 * passed it: then it gets a second chance at the back of the queue (the CLOCK approximation of least recently
 * used). A hit only marks its entry: the map is not rewritten per request. Moving every hit to the back
 * (a `delete` and a `set`) replaced the map's table every few requests, and V8 keeps each replaced table of a
 * `Map` linked to its successor, so from one table in the old generation on, every later one stayed alive
 * through young-generation collections (see `InFlightResponses` in the service kit).
 */
export class TokenCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly maxEntries: number,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string): Introspection | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    entry.used = true;
    return entry.value;
  }

  set(key: string, value: Introspection): void {
    if (this.ttlMs <= 0) return;
    const now = this.now();
    const tokenExpiry = value.active ? value.exp * 1000 : Infinity;
    const expiresAt = Math.min(now + this.ttlMs, tokenExpiry);
    if (expiresAt <= now) return;
    this.entries.delete(key);
    // A new entry counts as read: it is not the one to go when older entries are passed over.
    this.entries.set(key, { value, expiresAt, used: true });
    while (this.entries.size > this.maxEntries) {
      const [oldest, entry] = this.entries.entries().next().value!;
      this.entries.delete(oldest);
      if (entry.used && entry.expiresAt > now) {
        entry.used = false;
        this.entries.set(oldest, entry);
      }
    }
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
