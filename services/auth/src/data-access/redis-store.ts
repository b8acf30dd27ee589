import { Redis } from 'ioredis';
import type { RefreshTokenRecord, TokenRecord } from '../domain/tokens';
import {
  StoreUnavailableError,
  type AuthStore,
  type ClientRecord,
  type FailureCount,
  type IssuedTokens,
  type RevocationMessage,
  type RotationResult,
  type UserRecord,
} from './store';

/*
 * Keys (all under the configured prefix):
 *   at:<sha256>        access token record (JSON), TTL = its lifetime
 *   rt:<sha256>        refresh token hash {data (JSON), family, spent}, TTL = its lifetime
 *   fam:<family>       set of `at:<sha256>` / `rt:<sha256>` of one grant family, TTL = newest refresh token's
 *   client:<id>, clients   client records and the set of ids
 *   user:<name>, users     user records and the set of names
 *   fail:<key>         failed-login counter, TTL = the counting window
 * The Lua scripts build family keys from the prefix, so they assume one Redis node (no cluster slots).
 */

const REVOKE_FAMILY = `
local prefix = ARGV[1]
local fam = prefix .. 'fam:' .. ARGV[2]
local revoked = {}
for _, member in ipairs(redis.call('SMEMBERS', fam)) do
  local deleted = redis.call('DEL', prefix .. member)
  if deleted == 1 and string.sub(member, 1, 3) == 'at:' then
    table.insert(revoked, string.sub(member, 4))
  end
end
redis.call('DEL', fam)
return revoked
`;

// Single round trip, atomic: the check of the spent flag and the issue of the successor cannot interleave
// with another refresh of the same token, so of N concurrent refreshes exactly one rotates.
const ROTATE = `
local prefix = ARGV[1]
local state = redis.call('HMGET', KEYS[1], 'family', 'spent')
local family = state[1]
if not family then return {'unknown'} end
if state[2] == '1' then
  local fam = prefix .. 'fam:' .. family
  local revoked = {}
  for _, member in ipairs(redis.call('SMEMBERS', fam)) do
    local deleted = redis.call('DEL', prefix .. member)
    if deleted == 1 and string.sub(member, 1, 3) == 'at:' then
      table.insert(revoked, string.sub(member, 4))
    end
  end
  redis.call('DEL', fam)
  return {'reused', revoked}
end
redis.call('HSET', KEYS[1], 'spent', '1')
redis.call('SET', prefix .. 'at:' .. ARGV[2], ARGV[3], 'EX', ARGV[4])
redis.call('HSET', prefix .. 'rt:' .. ARGV[5], 'data', ARGV[6], 'family', family, 'spent', '0')
redis.call('EXPIRE', prefix .. 'rt:' .. ARGV[5], ARGV[7])
local fam = prefix .. 'fam:' .. family
redis.call('SADD', fam, 'at:' .. ARGV[2], 'rt:' .. ARGV[5])
redis.call('EXPIRE', fam, ARGV[7])
return {'rotated'}
`;

interface Scripts {
  rotate(key: string, ...args: (string | number)[]): Promise<[string, string[]?]>;
  revokeFamily(key: string, ...args: string[]): Promise<string[]>;
}

export interface RedisStoreOptions {
  url: string;
  prefix: string;
  channel: string;
  /** Upper bound for connecting and for each command; the HTTP answer to a dead Redis is then 503 in time. */
  timeoutMs: number;
}

const ttl = (exp: number) => Math.max(1, exp - Math.floor(Date.now() / 1000));

type RecordKind = 'client' | 'user';

export class RedisStore implements AuthStore {
  readonly kind = 'redis';
  readonly redis: Redis;
  private readonly prefix: string;
  private readonly channel: string;

  constructor(options: RedisStoreOptions) {
    this.prefix = options.prefix;
    this.channel = options.channel;
    // Fail fast instead of queueing while disconnected (the endpoints answer 503 at once) and keep
    // reconnecting in the background so the service recovers by itself.
    this.redis = new Redis(options.url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      // Commands issued in the same event loop turn (the GETs of concurrent introspections) leave in one
      // socket write; each keeps its own reply and timeout.
      enableAutoPipelining: true,
      maxRetriesPerRequest: 0,
      commandTimeout: options.timeoutMs,
      connectTimeout: options.timeoutMs,
      retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
    });
    this.redis.on('error', () => undefined);
    this.redis.defineCommand('authRotate', { numberOfKeys: 1, lua: ROTATE });
    this.redis.defineCommand('authRevokeFamily', { numberOfKeys: 0, lua: REVOKE_FAMILY });
  }

  /** Connects once; later reconnections are automatic. */
  async connect(): Promise<void> {
    await this.redis.connect();
  }

  async getClient(id: string) {
    return this.getRecord<ClientRecord>('client', id);
  }
  async saveClient(client: ClientRecord) {
    await this.saveRecord('client', client.id, client);
  }
  async deleteClient(id: string) {
    return this.deleteRecord('client', id);
  }
  async listClients() {
    return this.listRecords<ClientRecord>('client');
  }
  async getUser(username: string) {
    return this.getRecord<UserRecord>('user', username);
  }
  async saveUser(user: UserRecord) {
    await this.saveRecord('user', user.username, user);
  }
  async deleteUser(username: string) {
    return this.deleteRecord('user', username);
  }
  async listUsers() {
    return this.listRecords<UserRecord>('user');
  }

  /** Clients and users: one JSON value per record (`<kind>:<id>`) plus a set of ids (`<kind>s`). */
  private async getRecord<T>(kind: RecordKind, id: string): Promise<T | undefined> {
    return this.json<T>(await this.run(() => this.redis.get(this.key(`${kind}:`, id))));
  }
  private async saveRecord(kind: RecordKind, id: string, record: object) {
    await this.run(() =>
      this.redis
        .multi()
        .set(this.key(`${kind}:`, id), JSON.stringify(record))
        .sadd(this.key(`${kind}s`), id)
        .exec(),
    );
  }
  private async deleteRecord(kind: RecordKind, id: string) {
    const result = await this.run(() =>
      this.redis
        .multi()
        .del(this.key(`${kind}:`, id))
        .srem(this.key(`${kind}s`), id)
        .exec(),
    );
    return result?.[0]?.[1] === 1;
  }
  private async listRecords<T>(kind: RecordKind): Promise<T[]> {
    const ids = (await this.run(() => this.redis.smembers(this.key(`${kind}s`)))).sort();
    const records: (T | undefined)[] = await Promise.all(ids.map((id) => this.getRecord<T>(kind, id)));
    return records.filter((record): record is T => record !== undefined);
  }

  async saveTokens(tokens: IssuedTokens) {
    const fam = this.key('fam:', tokens.access.family);
    const rt = this.key('rt:', tokens.refreshHash);
    await this.run(() =>
      this.redis
        .multi()
        .set(this.key('at:', tokens.accessHash), JSON.stringify(tokens.access), 'EX', ttl(tokens.access.exp))
        .hset(rt, { data: JSON.stringify(tokens.refresh), family: tokens.refresh.family, spent: '0' })
        .expire(rt, ttl(tokens.refresh.exp))
        .sadd(fam, `at:${tokens.accessHash}`, `rt:${tokens.refreshHash}`)
        .expire(fam, ttl(tokens.refresh.exp))
        .exec(),
    );
  }

  async rotateRefreshToken(spentRefreshHash: string, tokens: IssuedTokens): Promise<RotationResult> {
    const [outcome, revoked] = await this.run(() =>
      (this.redis as unknown as { authRotate: Scripts['rotate'] }).authRotate(
        this.key('rt:', spentRefreshHash),
        this.prefix,
        tokens.accessHash,
        JSON.stringify(tokens.access),
        ttl(tokens.access.exp),
        tokens.refreshHash,
        JSON.stringify(tokens.refresh),
        ttl(tokens.refresh.exp),
      ),
    );
    if (outcome === 'rotated') return { outcome };
    if (outcome === 'reused') return { outcome, revokedAccessHashes: revoked ?? [] };
    return { outcome: 'unknown' };
  }

  async getAccessToken(hash: string) {
    return this.json<TokenRecord>(await this.run(() => this.redis.get(this.key('at:', hash))));
  }
  async getRefreshToken(hash: string): Promise<RefreshTokenRecord | undefined> {
    const fields = await this.run(() => this.redis.hmget(this.key('rt:', hash), 'data', 'spent'));
    const record = this.json<RefreshTokenRecord>(fields[0] ?? null);
    return record && { ...record, spent: fields[1] === '1' };
  }
  async revokeAccessToken(hash: string) {
    return (await this.run(() => this.redis.del(this.key('at:', hash)))) === 1;
  }
  async revokeFamily(family: string) {
    return this.run(() =>
      (this.redis as unknown as { authRevokeFamily: Scripts['revokeFamily'] }).authRevokeFamily(
        this.prefix,
        family,
      ),
    );
  }

  async countFailures(keys: string[]): Promise<FailureCount[]> {
    const pipeline = this.redis.pipeline();
    for (const key of keys) pipeline.get(this.key('fail:', key)).ttl(this.key('fail:', key));
    const replies = (await this.run(() => pipeline.exec())) ?? [];
    return keys.map((_, index) => {
      const [countError, count] = replies[index * 2] ?? [];
      const [ttlError, seconds] = replies[index * 2 + 1] ?? [];
      if (countError || ttlError) throw new StoreUnavailableError(countError ?? ttlError);
      return { count: Number(count ?? 0), resetsInSeconds: Math.max(0, Number(seconds)) };
    });
  }
  async recordFailure(keys: string[], windowSeconds: number) {
    const multi = this.redis.multi();
    for (const key of keys)
      multi.incr(this.key('fail:', key)).expire(this.key('fail:', key), windowSeconds, 'NX');
    await this.run(() => multi.exec());
  }
  async resetFailures(key: string) {
    await this.run(() => this.redis.del(this.key('fail:', key)));
  }

  async publishRevocation(message: RevocationMessage) {
    await this.run(() => this.redis.publish(this.channel, JSON.stringify(message)));
  }
  async ping() {
    await this.run(() => this.redis.ping());
  }
  async close() {
    this.redis.disconnect();
  }

  private key(kind: string, id = ''): string {
    return `${this.prefix}${kind}${id}`;
  }

  private json<T>(raw: string | null): T | undefined {
    return raw === null ? undefined : (JSON.parse(raw) as T);
  }

  private async run<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      throw new StoreUnavailableError(error);
    }
  }
}
