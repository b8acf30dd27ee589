import type { RevocationMessage } from '@spam-check/contracts';
import type { RedisConnection } from '@spam-check/service-kit';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Result } from 'ioredis';
import type { RedisClient } from '@spam-check/service-kit';
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
 * The Lua scripts reach keys they build from the prefix, so on a Redis Cluster the prefix must hold a hash tag
 * (`{auth}:`; the configuration makes a prefix without one its own tag): every auth key then lives in one slot.
 */

declare module 'ioredis' {
  interface RedisCommander<Context> {
    authRotate(key: string, ...args: (string | number)[]): Result<[string, string[]?], Context>;
    authUndoRotation(key: string, ...args: string[]): Result<number, Context>;
    authActiveAccess(key: string, prefix: string): Result<string | null, Context>;
    authRevokeFamily(...args: string[]): Result<string[], Context>;
    authReserve(...args: (string | number)[]): Result<number, Context>;
    authRelease(...args: (string | number)[]): Result<number, Context>;
    authCreateRecord(record: string, index: string, json: string, id: string): Result<number, Context>;
  }
}

/**
 * A Lua script beside this file (the build copies them beside the compiled one). A line `--#include <file>`
 * takes that file's text: the family deletion that the rotation and the revocation share.
 */
function script(name: string): string {
  return readFileSync(join(__dirname, name), 'utf8').replace(/^--#include (\S+)\n/m, (_line, file: string) =>
    readFileSync(join(__dirname, file), 'utf8'),
  );
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
  private readonly redis: RedisClient;
  private readonly prefix: string;
  private readonly channel: string;
  private readonly timeoutMs: number;

  constructor(options: RedisStoreOptions) {
    this.connection = options.connection;
    this.redis = options.connection.client;
    this.prefix = options.prefix;
    this.channel = options.channel;
    this.timeoutMs = options.timeoutMs;
    this.redis.defineCommand('authRotate', { numberOfKeys: 1, lua: script('rotate.lua') });
    this.redis.defineCommand('authUndoRotation', { numberOfKeys: 1, lua: script('undo-rotation.lua') });
    this.redis.defineCommand('authActiveAccess', { numberOfKeys: 1, lua: script('active-access.lua') });
    this.redis.defineCommand('authRevokeFamily', { numberOfKeys: 1, lua: script('revoke-family.lua') });
    this.redis.defineCommand('authReserve', { lua: script('reserve.lua') });
    this.redis.defineCommand('authRelease', { lua: script('release.lua') });
    this.redis.defineCommand('authCreateRecord', { numberOfKeys: 2, lua: script('create-record.lua') });
  }

  async getClient(id: string) {
    return this.getRecord<ClientRecord>('client', id);
  }
  async saveClient(client: ClientRecord) {
    await this.saveRecord('client', client.id, client);
  }
  async createClient(client: ClientRecord) {
    const created = await this.run(() =>
      this.redis.authCreateRecord(
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
      this.redis.authRotate(
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
      this.redis.authUndoRotation(
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
      await this.run(() => this.redis.authActiveAccess(this.key('at:', hash), this.prefix)),
    );
  }
  async revokeAccessToken(hash: string) {
    return (await this.run(() => this.redis.del(this.key('at:', hash)))) === 1;
  }
  async revokeFamily(family: string) {
    return this.run(() => this.redis.authRevokeFamily(this.key('fam:', family), this.prefix));
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
      this.redis.authReserve(
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
    await this.run(() => this.redis.authRelease(keys.length, ...keys.map((key) => this.key('fail:', key))));
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
