import type { RevocationMessage } from '@spam-check/contracts';
import type { RedisConnection } from '@spam-check/service-kit';
import type { Redis } from 'ioredis';
import type { RefreshTokenRecord, TokenRecord } from '../domain/tokens';
import {
  StoreUnavailableError,
  type AuthStore,
  type AttemptLimit,
  type ClientRecord,
  type IssuedTokens,
  type Reservation,
  type RotatedTokens,
  type RotationResult,
  type UserRecord,
} from '../domain/store';

/*
 * Keys (all under the configured prefix):
 *   at:<sha256>        access token record (JSON), TTL = its lifetime
 *   rt:<sha256>        refresh token hash {data (JSON), family, spent, next?}, TTL = its lifetime; `next` is
 *                      the successor's hash once spent
 *   fam:<family>       set of `at:<sha256>` / `rt:<sha256>` of one grant family, TTL = newest token's
 *   cfam:<client id>   set of the client's families, TTL = its newest family's
 *   client:<id>, clients   client records and the set of ids
 *   user:<name>, users     user records and the set of names
 *   fail:<key>         brute-force attempt counter, TTL = the counting window
 * The Lua scripts build family keys from the prefix, so they assume one Redis node (no cluster slots).
 */

// Lua, used by the scripts below with `prefix` and the family key `fam` set: deletes the family's tokens and
// the family, and leaves in `revoked` the hashes of the access tokens that were still there.
const DELETE_FAMILY = `
local revoked = {}
for _, member in ipairs(redis.call('SMEMBERS', fam)) do
  local deleted = redis.call('DEL', prefix .. member)
  if deleted == 1 and string.sub(member, 1, 3) == 'at:' then
    table.insert(revoked, string.sub(member, 4))
  end
end
redis.call('DEL', fam)
`;

const REVOKE_FAMILY = `
local prefix = ARGV[1]
local fam = prefix .. 'fam:' .. ARGV[2]
${DELETE_FAMILY}
return revoked
`;

// Single round trip, atomic: the check of the spent flag and the issue of the successor cannot interleave
// with another refresh of the same token, so of N concurrent refreshes exactly one rotates. The deadline is
// checked against Redis's clock first (ARGV[8], unix ms): a script that waited behind a stalled Redis after
// the service had already answered 503 must not consume the token.
const ROTATE = `
local prefix = ARGV[1]
local now = redis.call('TIME')
if tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) > tonumber(ARGV[8]) then
  return {'expired'}
end
local state = redis.call('HMGET', KEYS[1], 'family', 'spent')
local family = state[1]
if not family then return {'unknown'} end
if state[2] == '1' then
  local fam = prefix .. 'fam:' .. family
  ${DELETE_FAMILY}
  return {'reused', revoked}
end
redis.call('HSET', KEYS[1], 'spent', '1', 'next', ARGV[5])
redis.call('SET', prefix .. 'at:' .. ARGV[2], ARGV[3], 'EX', ARGV[4])
redis.call('HSET', prefix .. 'rt:' .. ARGV[5], 'data', ARGV[6], 'family', family, 'spent', '0')
redis.call('EXPIRE', prefix .. 'rt:' .. ARGV[5], ARGV[7])
local fam = prefix .. 'fam:' .. family
redis.call('SADD', fam, 'at:' .. ARGV[2], 'rt:' .. ARGV[5])
redis.call('EXPIRE', fam, ARGV[7])
return {'rotated'}
`;

// The successor is removed only while it is still unspent, so an undo can never take away tokens that a
// client has already used.
const UNDO_ROTATION = `
local prefix = ARGV[1]
local state = redis.call('HMGET', KEYS[1], 'family', 'spent', 'next')
if state[2] ~= '1' or state[3] ~= ARGV[2] then return 0 end
local successor = prefix .. 'rt:' .. ARGV[2]
if redis.call('HGET', successor, 'spent') ~= '0' then return 0 end
redis.call('DEL', successor, prefix .. 'at:' .. ARGV[3])
redis.call('SREM', prefix .. 'fam:' .. state[1], 'rt:' .. ARGV[2], 'at:' .. ARGV[3])
redis.call('HSET', KEYS[1], 'spent', '0')
redis.call('HDEL', KEYS[1], 'next')
return 1
`;

// An access token is active only while its client exists: one round trip on the introspection hot path.
const ACTIVE_ACCESS = `
local data = redis.call('GET', KEYS[1])
if not data then return false end
if redis.call('EXISTS', ARGV[1] .. 'client:' .. cjson.decode(data).clientId) == 0 then return false end
return data
`;

// Reserve first, then check: concurrent attempts each take a slot before the expensive verification, so a
// burst cannot run more verifications than the limit. A refused attempt writes nothing: counters are only
// created by attempts that were let through, so a flood of refused attempts (random client ids, say) leaves
// no keys behind.
const RESERVE = `
local window = ARGV[1]
local wait = 0
for i, key in ipairs(KEYS) do
  if tonumber(redis.call('GET', key) or '0') >= tonumber(ARGV[i + 1]) then
    wait = math.max(wait, redis.call('TTL', key), 1)
  end
end
if wait > 0 then return wait end
for _, key in ipairs(KEYS) do
  redis.call('INCR', key)
  redis.call('EXPIRE', key, window, 'NX')
end
return 0
`;

// Never below zero, never a counter without a window (the key may have expired since the reservation).
const RELEASE = `
for _, key in ipairs(KEYS) do
  local count = tonumber(redis.call('GET', key) or '0')
  if count > 0 then redis.call('DECR', key) end
end
return 0
`;

// A record only where there is none yet, with its id in the index set.
const CREATE_RECORD = `
if not redis.call('SET', KEYS[1], ARGV[1], 'NX') then return 0 end
redis.call('SADD', KEYS[2], ARGV[2])
return 1
`;

interface Scripts {
  authRotate(key: string, ...args: (string | number)[]): Promise<[string, string[]?]>;
  authUndoRotation(key: string, ...args: string[]): Promise<number>;
  authActiveAccess(key: string, prefix: string): Promise<string | null>;
  authRevokeFamily(...args: string[]): Promise<string[]>;
  authReserve(...args: (string | number)[]): Promise<number>;
  authRelease(...args: (string | number)[]): Promise<number>;
  authCreateRecord(record: string, index: string, json: string, id: string): Promise<number>;
}

export interface RedisStoreOptions {
  /** From the service kit's `connectRedis`, with `timeoutMs` as its timeout. */
  connection: RedisConnection;
  prefix: string;
  channel: string;
  /** Upper bound for connecting and for each command; the HTTP answer to a dead Redis is then 503 in time. */
  timeoutMs: number;
}

const ttl = (exp: number) => Math.max(1, exp - Math.floor(Date.now() / 1000));

type RecordKind = 'client' | 'user';

export class RedisStore implements AuthStore {
  readonly kind = 'redis';
  private readonly connection: RedisConnection;
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly channel: string;
  private readonly timeoutMs: number;

  constructor(options: RedisStoreOptions) {
    this.connection = options.connection;
    this.redis = options.connection.client;
    this.prefix = options.prefix;
    this.channel = options.channel;
    this.timeoutMs = options.timeoutMs;
    this.redis.defineCommand('authRotate', { numberOfKeys: 1, lua: ROTATE });
    this.redis.defineCommand('authUndoRotation', { numberOfKeys: 1, lua: UNDO_ROTATION });
    this.redis.defineCommand('authActiveAccess', { numberOfKeys: 1, lua: ACTIVE_ACCESS });
    this.redis.defineCommand('authRevokeFamily', { numberOfKeys: 0, lua: REVOKE_FAMILY });
    this.redis.defineCommand('authReserve', { lua: RESERVE });
    this.redis.defineCommand('authRelease', { lua: RELEASE });
    this.redis.defineCommand('authCreateRecord', { numberOfKeys: 2, lua: CREATE_RECORD });
  }

  async getClient(id: string) {
    return this.getRecord<ClientRecord>('client', id);
  }
  async saveClient(client: ClientRecord) {
    await this.saveRecord('client', client.id, client);
  }
  async createClient(client: ClientRecord) {
    const created = await this.run(() =>
      this.scripts.authCreateRecord(
        this.key('client:', client.id),
        this.key('clients'),
        JSON.stringify(client),
        client.id,
      ),
    );
    return created === 1;
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
    const clientFamilies = this.key('cfam:', tokens.access.clientId);
    const lastExp = ttl(tokens.refresh?.record.exp ?? tokens.access.exp);
    const multi = this.redis
      .multi()
      .set(this.key('at:', tokens.accessHash), JSON.stringify(tokens.access), 'EX', ttl(tokens.access.exp))
      .sadd(fam, `at:${tokens.accessHash}`);
    if (tokens.refresh) {
      const rt = this.key('rt:', tokens.refresh.hash);
      multi
        .hset(rt, { data: JSON.stringify(tokens.refresh.record), family: tokens.access.family, spent: '0' })
        .expire(rt, ttl(tokens.refresh.record.exp))
        .sadd(fam, `rt:${tokens.refresh.hash}`);
    }
    multi
      .expire(fam, lastExp)
      .sadd(clientFamilies, tokens.access.family)
      .expire(clientFamilies, lastExp, 'NX')
      .expire(clientFamilies, lastExp, 'GT');
    await this.run(() => multi.exec());
  }

  async rotateRefreshToken(spentRefreshHash: string, tokens: RotatedTokens): Promise<RotationResult> {
    // The command times out on our side after timeoutMs; Redis must not run it later than that either.
    // This assumes the service's and Redis's clocks agree to well within timeoutMs (NTP).
    const deadlineMs = Date.now() + this.timeoutMs;
    const [outcome, revoked] = await this.run(() =>
      this.scripts.authRotate(
        this.key('rt:', spentRefreshHash),
        this.prefix,
        tokens.accessHash,
        JSON.stringify(tokens.access),
        ttl(tokens.access.exp),
        tokens.refresh.hash,
        JSON.stringify(tokens.refresh.record),
        ttl(tokens.refresh.record.exp),
        deadlineMs,
      ),
    );
    if (outcome === 'expired') throw new StoreUnavailableError(new Error('rotation past its deadline'));
    if (outcome === 'rotated') return { outcome };
    if (outcome === 'reused') return { outcome, revokedAccessHashes: revoked ?? [] };
    return { outcome: 'unknown' };
  }

  async undoRotation(spentRefreshHash: string, successor: RotatedTokens) {
    const undone = await this.run(() =>
      this.scripts.authUndoRotation(
        this.key('rt:', spentRefreshHash),
        this.prefix,
        successor.refresh.hash,
        successor.accessHash,
      ),
    );
    return undone === 1;
  }

  async getAccessToken(hash: string) {
    return this.json<TokenRecord>(await this.run(() => this.redis.get(this.key('at:', hash))));
  }
  async getRefreshToken(hash: string): Promise<RefreshTokenRecord | undefined> {
    const fields = await this.run(() => this.redis.hmget(this.key('rt:', hash), 'data', 'spent'));
    const record = this.json<RefreshTokenRecord>(fields[0] ?? null);
    return record && { ...record, spent: fields[1] === '1' };
  }
  async getActiveAccessToken(hash: string) {
    return this.json<TokenRecord>(
      await this.run(() => this.scripts.authActiveAccess(this.key('at:', hash), this.prefix)),
    );
  }
  async revokeAccessToken(hash: string) {
    return (await this.run(() => this.redis.del(this.key('at:', hash)))) === 1;
  }
  async revokeFamily(family: string) {
    return this.run(() => this.scripts.authRevokeFamily(this.prefix, family));
  }
  async revokeClientTokens(clientId: string) {
    const clientFamilies = this.key('cfam:', clientId);
    const families = await this.run(() => this.redis.smembers(clientFamilies));
    const revoked = await Promise.all(families.map((family) => this.revokeFamily(family)));
    if (families.length > 0) await this.run(() => this.redis.srem(clientFamilies, ...families));
    return revoked.flat();
  }

  async reserveAttempts(limits: AttemptLimit[], windowSeconds: number): Promise<Reservation> {
    const wait = await this.run(() =>
      this.scripts.authReserve(
        limits.length,
        ...limits.map(({ key }) => this.key('fail:', key)),
        windowSeconds,
        ...limits.map(({ max }) => max),
      ),
    );
    return wait === 0 ? { allowed: true } : { allowed: false, retryAfterSeconds: wait };
  }
  async releaseAttempts(keys: string[]) {
    if (keys.length === 0) return;
    await this.run(() => this.scripts.authRelease(keys.length, ...keys.map((key) => this.key('fail:', key))));
  }
  async resetAttempts(key: string) {
    await this.run(() => this.redis.del(this.key('fail:', key)));
  }

  async publishRevocation(message: RevocationMessage) {
    await this.run(() => this.redis.publish(this.channel, JSON.stringify(message)));
  }
  async ping() {
    await this.run(() => this.redis.ping());
  }
  async close() {
    await this.connection.closer.close();
  }

  private get scripts(): Scripts {
    return this.redis as unknown as Scripts;
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
