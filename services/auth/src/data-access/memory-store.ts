import { EventEmitter } from 'node:events';
import type { RefreshTokenRecord, TokenRecord } from '../domain/tokens';
import type {
  AuthStore,
  ClientRecord,
  FailureCount,
  IssuedTokens,
  RevocationMessage,
  RotationResult,
  UserRecord,
} from './store';

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
  private readonly refresh = new Map<string, Expiring<RefreshTokenRecord>>();
  private readonly families = new Map<string, Set<string>>();
  private readonly failures = new Map<string, Expiring<number>>();
  private readonly sweeper = setInterval(() => this.sweep(), 60_000).unref();

  async getClient(id: string) {
    const client = this.clients.get(id);
    return client && clone(client);
  }
  async saveClient(client: ClientRecord) {
    this.clients.set(client.id, clone(client));
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

  async rotateRefreshToken(spentRefreshHash: string, tokens: IssuedTokens): Promise<RotationResult> {
    const current = live(this.refresh, spentRefreshHash);
    if (!current) return { outcome: 'unknown' };
    if (current.spent)
      return { outcome: 'reused', revokedAccessHashes: this.revokeFamilySync(current.family) };
    current.spent = true;
    this.store(tokens);
    return { outcome: 'rotated' };
  }

  async getAccessToken(hash: string) {
    const record = live(this.access, hash);
    return record && clone(record);
  }
  async getRefreshToken(hash: string) {
    const record = live(this.refresh, hash);
    return record && clone(record);
  }
  async revokeAccessToken(hash: string) {
    return live(this.access, hash) !== undefined && this.access.delete(hash);
  }
  async revokeFamily(family: string) {
    return this.revokeFamilySync(family);
  }

  async countFailures(keys: string[]): Promise<FailureCount[]> {
    const now = Date.now();
    return keys.map((key) => {
      const entry = live(this.failures, key);
      const expiresAt = this.failures.get(key)?.expiresAt ?? now;
      return entry === undefined
        ? { count: 0, resetsInSeconds: 0 }
        : { count: entry, resetsInSeconds: Math.ceil((expiresAt - now) / 1000) };
    });
  }
  async recordFailure(keys: string[], windowSeconds: number) {
    for (const key of keys) {
      const current = live(this.failures, key);
      if (current === undefined)
        this.failures.set(key, { value: 1, expiresAt: Date.now() + windowSeconds * 1000 });
      else this.failures.get(key)!.value = current + 1;
    }
  }
  async resetFailures(key: string) {
    this.failures.delete(key);
  }

  async publishRevocation(message: RevocationMessage) {
    this.revocations.emit('revocation', message);
  }
  async ping() {}
  async close() {
    clearInterval(this.sweeper);
  }

  private store(tokens: IssuedTokens) {
    this.access.set(tokens.accessHash, {
      value: clone(tokens.access),
      expiresAt: tokens.access.exp * 1000,
    });
    this.refresh.set(tokens.refreshHash, {
      value: clone(tokens.refresh),
      expiresAt: tokens.refresh.exp * 1000,
    });
    const family = this.families.get(tokens.access.family) ?? new Set<string>();
    family.add(`at:${tokens.accessHash}`).add(`rt:${tokens.refreshHash}`);
    this.families.set(tokens.access.family, family);
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
    for (const map of [this.access, this.refresh, this.failures] as Map<string, Expiring<unknown>>[])
      for (const [key, entry] of map) if (entry.expiresAt <= Date.now()) map.delete(key);
    for (const [family, members] of this.families)
      if (![...members].some((m) => this.access.has(m.slice(3)) || this.refresh.has(m.slice(3))))
        this.families.delete(family);
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
