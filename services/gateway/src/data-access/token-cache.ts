import type { Introspection } from '@spam-check/contracts';

interface Entry {
  value: Introspection;
  expiresAt: number;
  /** The token's SHA-256, as revocations name it. */
  hash: string;
}

/**
 * Introspection results by token, bounded in size (least recently used first out) and in time (the
 * configured TTL, never beyond the token's own expiry). Looked up by the token itself, so a cached request
 * costs no hashing; revocations name tokens by their hash, hence the second index. The tokens are kept in
 * this process's memory for at most the TTL, as every request's own headers are.
 */
export class TokenCache {
  private readonly entries = new Map<string, Entry>();
  private readonly tokensByHash = new Map<string, string>();

  constructor(
    private readonly maxEntries: number,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(token: string): Introspection | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.delete(token);
      return undefined;
    }
    this.entries.delete(token);
    this.entries.set(token, entry);
    return entry.value;
  }

  set(token: string, hash: string, value: Introspection): void {
    if (this.ttlMs <= 0) return;
    const now = this.now();
    const tokenExpiry = value.active ? value.exp * 1000 : Infinity;
    const expiresAt = Math.min(now + this.ttlMs, tokenExpiry);
    if (expiresAt <= now) return;
    this.entries.delete(token);
    this.entries.set(token, { value, expiresAt, hash });
    this.tokensByHash.set(hash, token);
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.delete(oldest.value);
    }
  }

  /** Forgets the token with this SHA-256 (a revocation). */
  deleteByHash(hash: string): void {
    const token = this.tokensByHash.get(hash);
    if (token !== undefined) this.delete(token);
  }

  clear(): void {
    this.entries.clear();
    this.tokensByHash.clear();
  }

  private delete(token: string): void {
    const entry = this.entries.get(token);
    if (!entry) return;
    this.entries.delete(token);
    this.tokensByHash.delete(entry.hash);
  }
}
