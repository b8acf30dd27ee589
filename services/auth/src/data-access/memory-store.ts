import { EventEmitter } from 'node:events';
import type { RevocationMessage } from '@spam-check/contracts';
import type { RefreshTokenRecord, TokenRecord } from '../domain/tokens';
import type {
  AttemptLimit,
  AuthStore,
  ClientRecord,
  IssuedTokens,
  Reservation,
  RotatedTokens,
  RotationResult,
  UserRecord,
} from '../domain/store';

interface SpentRefresh extends RefreshTokenRecord {
  /** The successor's refresh token hash, once spent. */
  next?: string;
}

interface Expiring<T> {
  value: T;
  expiresAt: number;
}

/**
 * The embedded mode's store: same contract as Redis, kept in this process (lost on restart). Every method is
 * synchronous inside, so rotation is atomic without locks. Revocations are emitted on `revocations`.
 */
export class MemoryStore implements AuthStore {
  readonly kind = 'memory';
  readonly revocations = new EventEmitter();
  private readonly clients = new Map<string, ClientRecord>();
  private readonly users = new Map<string, UserRecord>();
  private readonly access = new Map<string, Expiring<TokenRecord>>();
  private readonly refresh = new Map<string, Expiring<SpentRefresh>>();
  private readonly families = new Map<string, Set<string>>();
  private readonly clientFamilies = new Map<string, Set<string>>();
  private readonly attempts = new Map<string, Expiring<number>>();
  private readonly sweeper = setInterval(() => this.sweep(), 60_000).unref();

  async getClient(id: string) {
    const client = this.clients.get(id);
    return client && clone(client);
  }
  async saveClient(client: ClientRecord) {
    this.clients.set(client.id, clone(client));
  }
  async createClient(client: ClientRecord) {
    if (this.clients.has(client.id)) return false;
    this.clients.set(client.id, clone(client));
    return true;
  }
  async deleteClient(id: string) {
    return this.clients.delete(id);
  }
  async listClients() {
    return [...this.clients.values()].map((c) => clone(c)).sort((a, b) => a.id.localeCompare(b.id));
  }
  async getUser(username: string) {
    const user = this.users.get(username);
    return user && { ...user };
  }
  async saveUser(user: UserRecord) {
    this.users.set(user.username, { ...user });
  }
  async deleteUser(username: string) {
    return this.users.delete(username);
  }
  async listUsers() {
    return [...this.users.values()]
      .map((u) => ({ ...u }))
      .sort((a, b) => a.username.localeCompare(b.username));
  }

  async saveTokens(tokens: IssuedTokens) {
    this.store(tokens);
  }

  async rotateRefreshToken(spentRefreshHash: string, tokens: RotatedTokens): Promise<RotationResult> {
    const current = live(this.refresh, spentRefreshHash);
    if (!current) return { outcome: 'unknown' };
    if (current.spent)
      return { outcome: 'reused', revokedAccessHashes: this.revokeFamilySync(current.family) };
    current.spent = true;
    current.next = tokens.refresh.hash;
    this.store(tokens);
    return { outcome: 'rotated' };
  }

  async undoRotation(spentRefreshHash: string, successor: RotatedTokens) {
    const current = live(this.refresh, spentRefreshHash);
    const next = live(this.refresh, successor.refresh.hash);
    if (!current?.spent || current.next !== successor.refresh.hash || !next || next.spent) return false;
    this.refresh.delete(successor.refresh.hash);
    this.access.delete(successor.accessHash);
    this.families.get(current.family)?.delete(`rt:${successor.refresh.hash}`);
    this.families.get(current.family)?.delete(`at:${successor.accessHash}`);
    current.spent = false;
    delete current.next;
    return true;
  }

  async getAccessToken(hash: string) {
    const record = live(this.access, hash);
    return record && clone(record);
  }
  async getActiveAccessToken(hash: string) {
    const record = live(this.access, hash);
    return record && this.clients.has(record.clientId) ? clone(record) : undefined;
  }
  async getRefreshToken(hash: string): Promise<RefreshTokenRecord | undefined> {
    const record = live(this.refresh, hash);
    if (!record) return undefined;
    const { next: _next, ...rest } = record;
    return clone(rest);
  }
  async revokeAccessToken(hash: string) {
    return live(this.access, hash) !== undefined && this.access.delete(hash);
  }
  async revokeFamily(family: string) {
    return this.revokeFamilySync(family);
  }
  async revokeClientTokens(clientId: string) {
    const families = [...(this.clientFamilies.get(clientId) ?? [])];
    this.clientFamilies.delete(clientId);
    return families.flatMap((family) => this.revokeFamilySync(family));
  }

  async reserveAttempts(limits: AttemptLimit[], windowSeconds: number): Promise<Reservation> {
    const now = Date.now();
    const live = limits.map(({ key }) => {
      const entry = this.attempts.get(key);
      return entry && entry.expiresAt > now ? entry : undefined;
    });
    const over = live.filter((entry, i) => entry !== undefined && entry.value + 1 > limits[i]!.max);
    if (over.length > 0)
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, ...over.map((e) => Math.ceil((e!.expiresAt - now) / 1000))),
      };
    limits.forEach(({ key }, i) => {
      const entry = live[i] ?? { value: 0, expiresAt: now + windowSeconds * 1000 };
      entry.value += 1;
      this.attempts.set(key, entry);
    });
    return { allowed: true };
  }
  async releaseAttempts(keys: string[]) {
    for (const key of keys) {
      const entry = live(this.attempts, key);
      if (entry !== undefined && entry > 0) this.attempts.get(key)!.value = entry - 1;
    }
  }
  async resetAttempts(key: string) {
    this.attempts.delete(key);
  }

  async publishRevocation(message: RevocationMessage) {
    this.revocations.emit('revocation', message);
  }
  async ping() {}
  async close() {
    clearInterval(this.sweeper);
  }

  private store(tokens: IssuedTokens) {
    const { family: name, clientId } = tokens.access;
    this.access.set(tokens.accessHash, { value: clone(tokens.access), expiresAt: tokens.access.exp * 1000 });
    const family = this.families.get(name) ?? new Set<string>();
    family.add(`at:${tokens.accessHash}`);
    if (tokens.refresh) {
      this.refresh.set(tokens.refresh.hash, {
        value: clone(tokens.refresh.record),
        expiresAt: tokens.refresh.record.exp * 1000,
      });
      family.add(`rt:${tokens.refresh.hash}`);
    }
    this.families.set(name, family);
    this.clientFamilies.set(clientId, (this.clientFamilies.get(clientId) ?? new Set<string>()).add(name));
  }

  private revokeFamilySync(family: string): string[] {
    const revoked: string[] = [];
    for (const member of this.families.get(family) ?? []) {
      const hash = member.slice(3);
      if (member.startsWith('at:')) {
        if (this.access.delete(hash)) revoked.push(hash);
      } else this.refresh.delete(hash);
    }
    this.families.delete(family);
    return revoked;
  }

  private sweep() {
    for (const map of [this.access, this.refresh, this.attempts] as Map<string, Expiring<unknown>>[])
      for (const [key, entry] of map) if (entry.expiresAt <= Date.now()) map.delete(key);
    for (const [family, members] of this.families)
      if (![...members].some((m) => this.access.has(m.slice(3)) || this.refresh.has(m.slice(3))))
        this.families.delete(family);
    for (const [client, families] of this.clientFamilies) {
      for (const family of families) if (!this.families.has(family)) families.delete(family);
      if (families.size === 0) this.clientFamilies.delete(client);
    }
  }
}

/** Copies records in and out so callers never share state with the store (as with Redis). */
function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function live<T>(map: Map<string, Expiring<T>>, key: string): T | undefined {
  const entry = map.get(key);
  if (!entry) return undefined;
  if (entry.expiresAt <= Date.now()) {
    map.delete(key);
    return undefined;
  }
  return entry.value;
}
