import type { Introspection } from '@spam-check/contracts';

interface Entry {
  value: Introspection;
  expiresAt: number;
}

/**
 * Introspection results by token hash, bounded in size (least recently used first out) and in time
 * (the configured TTL, never beyond the token's own expiry).
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
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: Introspection): void {
    if (this.ttlMs <= 0) return;
    const now = this.now();
    const tokenExpiry = value.active ? value.exp * 1000 : Infinity;
    const expiresAt = Math.min(now + this.ttlMs, tokenExpiry);
    if (expiresAt <= now) return;
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
