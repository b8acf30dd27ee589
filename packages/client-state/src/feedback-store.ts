import type { Redis } from 'ioredis';
import { z } from 'zod';
import { env } from '@spam-check/service-kit';

/**
 * Storage for feedback (DESIGN.md §6.1), shared by the gateway and both detectors: in Redis when it is
 * configured, else in the memory of the process (embedded mode). Two kinds of data, both kept per client:
 * - what a check needs in order to learn from it later, by check id, for FEEDBACK_RETENTION_SECONDS
 *   (`CheckMemory`; 0 keeps nothing);
 * - the client's reports and what they taught (`ClientMap`): kept until the cap, then the oldest entry goes.
 */
export const feedbackConfigShape = {
  FEEDBACK_RETENTION_SECONDS: z.coerce
    .number()
    .int()
    .nonnegative()
    .default(7 * 24 * 3600),
  FEEDBACK_MAX_REPORTS: env.positiveInt(10_000),
};

export interface CheckMemory {
  remember(client: string, checkId: string, value: string): Promise<void>;
  recall(client: string, checkId: string): Promise<string | undefined>;
  /** Deletes every check record of a client (erasure, DESIGN.md §7.5); answers how many there were. */
  eraseClient(client: string): Promise<number>;
  /** Deletes every check record, of any client, whose value is `value`; answers how many there were. */
  eraseValue(value: string): Promise<number>;
  /** Rewrites each record's value to `rewrite(value)`, keeping its expiry (migrations); answers how many changed. */
  rewriteValues(rewrite: (value: string) => string): Promise<number>;
}

/**
 * A map per client with a cap: writing beyond it drops the oldest-written entries. With a retention, an entry
 * older than it is gone: never read again, deleted at the client's next write, and a client's
 * keys expire as a whole once its newest entry is older than it.
 */
export interface ClientMap {
  get(client: string, key: string): Promise<string | undefined>;
  /** The values of `keys`, in their order (one read, however many keys). */
  getMany(client: string, keys: readonly string[]): Promise<(string | undefined)[]>;
  /** Writes `entries` and deletes `removed`. */
  update(
    client: string,
    entries: readonly (readonly [string, string])[],
    removed?: readonly string[],
  ): Promise<void>;
  /** Every entry of a client, oldest first. */
  all(client: string): Promise<[string, string][]>;
  clients(): Promise<string[]>;
  /** Deletes every entry of a client (erasure); answers how many there were. */
  eraseClient(client: string): Promise<number>;
  /** Deletes the entry `key` of every client (erasure); answers how many there were. */
  eraseKey(key: string): Promise<number>;
}

/**
 * The shape of a check id that is looked up at all: a check id comes from the caller, and must not carry the
 * `:` that separates the parts of a key (a crafted id could otherwise reach into another key's namespace).
 */
const CHECK_ID = /^[A-Za-z0-9-]{1,100}$/;

/** At most this many check records in memory across clients (embedded mode); the oldest is dropped first. */
const MEMORY_CHECKS = 100_000;
/**
 * Past the cap, this many of the oldest go at once. A Map keeps deleted entries as holes until it is
 * rehashed, and the walk to its oldest entry passes all of them: drop in bulk, never one per check.
 */
const EVICTED_TOGETHER = 1_000;

export function memoryCheckMemory(retentionSeconds: number, now = () => Date.now()): CheckMemory {
  const records = new Map<string, { value: string; expires: number }>();
  const eraseWhere = (matches: (key: string, value: string) => boolean) => {
    let erased = 0;
    for (const [key, record] of records)
      if (record.expires > now() && matches(key, record.value)) {
        records.delete(key);
        erased++;
      }
    return Promise.resolve(erased);
  };
  return {
    remember(client, checkId, value) {
      if (retentionSeconds === 0) return Promise.resolve();
      records.set(`${client}\n${checkId}`, { value, expires: now() + retentionSeconds * 1000 });
      if (records.size > MEMORY_CHECKS) {
        let excess = records.size - MEMORY_CHECKS + EVICTED_TOGETHER;
        for (const key of records.keys()) {
          records.delete(key);
          if (--excess === 0) break;
        }
      }
      return Promise.resolve();
    },
    recall(client, checkId) {
      if (!CHECK_ID.test(checkId)) return Promise.resolve(undefined);
      const key = `${client}\n${checkId}`;
      const record = records.get(key);
      if (!record || record.expires <= now()) {
        records.delete(key);
        return Promise.resolve(undefined);
      }
      return Promise.resolve(record.value);
    },
    eraseClient: (client) => eraseWhere((key) => key.startsWith(`${client}\n`)),
    eraseValue: (value) => eraseWhere((_key, stored) => stored === value),
    rewriteValues(rewrite) {
      let changed = 0;
      for (const record of records.values()) {
        const value = rewrite(record.value);
        if (value !== record.value) {
          record.value = value;
          changed++;
        }
      }
      return Promise.resolve(changed);
    },
  };
}

/**
 * Check ids the services make are UUIDs. The erasure and migration scans take only keys that end in one, so
 * that a map nested under the same prefix (the e-mail detector keeps `<prefix>reports:<client>:...`, which a
 * client named `reports` would match) is never mistaken for check records.
 */
const GENERATED_CHECK_KEY = /:check:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Every key matching `pattern` that `keep` accepts, in batches (SCAN: never blocks Redis on a big keyspace). */
async function* scanKeys(redis: Redis, pattern: string, keep: (key: string) => boolean) {
  for await (const batch of redis.scanStream({ match: pattern, count: 1000 }) as AsyncIterable<string[]>) {
    const kept = batch.filter(keep);
    if (kept.length > 0) yield kept;
  }
}

export function redisCheckMemory(redis: Redis, prefix: string, retentionSeconds: number): CheckMemory {
  const key = (client: string, checkId: string) => `${prefix}{${client}}:check:${checkId}`;
  const recordKey = (candidate: string) => GENERATED_CHECK_KEY.test(candidate);
  /** Each record with its value, a batch at a time. */
  async function* records() {
    for await (const keys of scanKeys(redis, `${prefix}*:check:*`, recordKey)) {
      const values = await redis.mget(keys);
      yield keys.flatMap((k, i) => (values[i] == null ? [] : [[k, values[i]] as [string, string]]));
    }
  }
  return {
    async remember(client, checkId, value) {
      if (retentionSeconds === 0) return;
      await redis.set(key(client, checkId), value, 'EX', retentionSeconds);
    },
    async recall(client, checkId) {
      if (!CHECK_ID.test(checkId)) return undefined;
      return (await redis.get(key(client, checkId))) ?? undefined;
    },
    async eraseClient(client) {
      let erased = 0;
      for await (const keys of scanKeys(redis, `${prefix}{${client}}:check:*`, recordKey))
        erased += await redis.del(...keys);
      return erased;
    },
    async eraseValue(value) {
      let erased = 0;
      for await (const batch of records()) {
        const matching = batch.filter(([, stored]) => stored === value).map(([k]) => k);
        if (matching.length > 0) erased += await redis.del(...matching);
      }
      return erased;
    },
    async rewriteValues(rewrite) {
      let changed = 0;
      for await (const batch of records()) {
        const transaction = redis.multi();
        for (const [k, value] of batch) {
          const next = rewrite(value);
          if (next === value) continue;
          // XX: a record that expired meanwhile stays gone; KEEPTTL: the rewrite does not extend its life.
          transaction.set(k, next, 'KEEPTTL', 'XX');
          changed++;
        }
        await transaction.exec();
      }
      return changed;
    },
  };
}

export function memoryClientMap(cap: number, retentionSeconds?: number, now = () => Date.now()): ClientMap {
  type Entries = Map<string, { value: string; at: number }>;
  const maps = new Map<string, Entries>();
  const live = (at: number) => retentionSeconds === undefined || at > now() - retentionSeconds * 1000;
  /**
   * The client's entries, the expired ones removed first. A write re-inserts its keys, so the map is in write
   * order: the expired entries are at its start, and the walk stops at the first live one (a write at the
   * caps does not visit every entry).
   */
  const current = (client: string): Entries | undefined => {
    const map = maps.get(client);
    if (!map) return undefined;
    for (const [key, entry] of map) {
      if (live(entry.at)) break;
      map.delete(key);
    }
    return map;
  };
  return {
    get: (client, key) => {
      const entry = maps.get(client)?.get(key);
      return Promise.resolve(entry && live(entry.at) ? entry.value : undefined);
    },
    getMany(client, keys) {
      const entries = maps.get(client);
      return Promise.resolve(
        keys.map((key) => {
          const entry = entries?.get(key);
          return entry && live(entry.at) ? entry.value : undefined;
        }),
      );
    },
    update(client, entries, removed = []) {
      let map = current(client);
      if (!map) {
        map = new Map<string, { value: string; at: number }>();
        maps.set(client, map);
      }
      for (const key of removed) map.delete(key);
      for (const [key, value] of entries) {
        map.delete(key);
        map.set(key, { value, at: now() });
      }
      while (map.size > cap) map.delete(map.keys().next().value as string);
      return Promise.resolve();
    },
    all: (client) =>
      Promise.resolve(
        [...(current(client) ?? [])].map(([key, entry]) => [key, entry.value] as [string, string]),
      ),
    clients: () => Promise.resolve([...maps.keys()]),
    eraseClient(client) {
      const erased = current(client)?.size ?? 0;
      maps.delete(client);
      return Promise.resolve(erased);
    },
    eraseKey(key) {
      let erased = 0;
      for (const map of maps.values()) if (map.delete(key)) erased++;
      return Promise.resolve(erased);
    },
  };
}

type ClientMapKeys = ReturnType<typeof clientMapKeys>;

function clientMapKeys(prefix: string, client: string) {
  return {
    entries: `${prefix}{${client}}:entries`,
    order: `${prefix}{${client}}:order`,
    /** A counter that earlier releases kept; only erased now. */
    version: `${prefix}{${client}}:version`,
  };
}

/**
 * A client's write in one round trip (KEYS: entries, order; ARGV: cap, retention in seconds or 0, the cutoff of
 * expired write times, how many keys are removed, those keys, then a write time, key and value per entry). In
 * order: the expired entries go, the removed ones go, the entries are written, the oldest beyond the cap go,
 * and with a retention both keys get it as their TTL. Write times
 * come from the caller as strings: a Lua number would lose the fractions that order one write's entries.
 * Keys go to HDEL / ZREM, and entries to one HSET and one ZADD, a thousand arguments at a time (Lua's
 * `unpack` has a limit): one call per command rather than per entry costs Redis a fifth less per write.
 */
const UPDATE_SCRIPT = `
local hash, order = KEYS[1], KEYS[2]
local cap, retention = tonumber(ARGV[1]), tonumber(ARGV[2])
local function drop(keys, sorted)
  for i = 1, #keys, 1000 do
    local last = math.min(i + 999, #keys)
    redis.call('HDEL', hash, unpack(keys, i, last))
    if sorted then redis.call('ZREM', order, unpack(keys, i, last)) end
  end
end
if retention > 0 then drop(redis.call('ZRANGEBYSCORE', order, '-inf', '(' .. ARGV[3]), true) end
local removed = tonumber(ARGV[4])
local gone = {}
for i = 5, 4 + removed do gone[#gone + 1] = ARGV[i] end
drop(gone, true)
local fields, scores = {}, {}
for i = 5 + removed, #ARGV, 3 do
  fields[#fields + 1], fields[#fields + 2] = ARGV[i + 1], ARGV[i + 2]
  scores[#scores + 1], scores[#scores + 2] = ARGV[i], ARGV[i + 1]
end
for i = 1, #fields, 1000 do
  local last = math.min(i + 999, #fields)
  redis.call('HSET', hash, unpack(fields, i, last))
  redis.call('ZADD', order, unpack(scores, i, last))
end
local size = redis.call('ZCARD', order)
if size > cap then
  local popped = redis.call('ZPOPMIN', order, size - cap)
  local oldest = {}
  for i = 1, #popped, 2 do oldest[#oldest + 1] = popped[i] end
  drop(oldest, false)
end
if retention > 0 then
  redis.call('EXPIRE', hash, retention)
  redis.call('EXPIRE', order, retention)
end
return size
`;

type UpdateScript = (hash: string, order: string, ...args: (string | number)[]) => Promise<number>;

/**
 * The values of `fields` in a client's map; with a retention (`oldest`, the first write time still kept), an
 * expired entry reads as missing. The write times are read only when the client has expired entries at all
 * (rare: they go at its next write); a check then reads its fields' values and one count, not 512 scores.
 */
async function readMany(
  redis: Redis,
  { entries: hash, order }: ClientMapKeys,
  fields: readonly string[],
  oldest: number | undefined,
): Promise<(string | undefined)[]> {
  if (fields.length === 0) return [];
  if (oldest === undefined) return (await redis.hmget(hash, ...fields)).map((value) => value ?? undefined);
  const [values, expired] = await Promise.all([
    redis.hmget(hash, ...fields),
    redis.zcount(order, '-inf', `(${oldest}`),
  ]);
  if (expired === 0) return values.map((value) => value ?? undefined);
  const times = await redis.zmscore(order, ...fields);
  return values.map((value, index) =>
    value === null || Number(times[index] ?? 0) < oldest ? undefined : value,
  );
}

/** Removes `key` from every client's map; answers how many entries went. */
async function eraseKeyOfEveryClient(redis: Redis, prefix: string, key: string): Promise<number> {
  let erased = 0;
  for (const client of await redis.smembers(`${prefix}clients`)) {
    const { entries: hash, order } = clientMapKeys(prefix, client);
    const results = await redis.multi().hdel(hash, key).zrem(order, key).exec();
    erased += Number(results?.[0]?.[1] ?? 0);
  }
  return erased;
}

/**
 * Per client: a hash of the entries and a sorted set of their write times (to drop the oldest beyond the cap
 * and the expired ones), and the set of clients (for exports and erasure). A client's keys share the hash tag
 * `{client}`, so its write script and transactions run on Redis Cluster too; the set of clients is written on
 * its own. With a retention, both keys of a client get it as their Redis TTL at each write: a client that
 * stops reporting is gone by itself.
 */
export function redisClientMap(
  redis: Redis,
  prefix: string,
  cap: number,
  retentionSeconds?: number,
): ClientMap {
  const keys = (client: string) => clientMapKeys(prefix, client);
  /** Write times before this are expired (`(` makes the bound exclusive for ZRANGEBYSCORE). */
  const cutoff = () => (retentionSeconds === undefined ? 0 : Date.now() - retentionSeconds * 1000);
  redis.defineCommand('spamCheckClientMapUpdate', { numberOfKeys: 2, lua: UPDATE_SCRIPT });
  const write = (redis as unknown as Record<string, UpdateScript>).spamCheckClientMapUpdate!.bind(redis);
  /**
   * The write time of a write's first entry: now in milliseconds, each entry 1/1024 ms after the one before
   * (exact in a double until 2109), and never before the end of this map's previous write, so that
   * the writes of one process keep their order within a millisecond too.
   */
  let nextWrite = 0;
  const writeTimes = (count: number) => {
    const start = Math.max(Date.now(), nextWrite);
    nextWrite = start + count / 1024;
    return start;
  };
  const getMany = (client: string, fields: readonly string[]) =>
    readMany(redis, keys(client), fields, retentionSeconds === undefined ? undefined : cutoff());
  return {
    get: async (client, key) => (await getMany(client, [key]))[0],
    getMany,
    async update(client, entries, removed = []) {
      const { entries: hash, order } = keys(client);
      const args: (string | number)[] = [cap, retentionSeconds ?? 0, cutoff(), removed.length, ...removed];
      const start = writeTimes(entries.length);
      entries.forEach(([key, value], index) => args.push(String(start + index / 1024), key, value));
      await Promise.all([write(hash, order, ...args), redis.sadd(`${prefix}clients`, client)]);
    },
    async all(client) {
      const { entries: hash, order } = keys(client);
      const [ordered, values] = await Promise.all([
        redis.zrangebyscore(order, cutoff(), '+inf'),
        redis.hgetall(hash),
      ]);
      return ordered.flatMap((key) =>
        key in values ? [[key, values[key] as string] as [string, string]] : [],
      );
    },
    async clients() {
      return redis.smembers(`${prefix}clients`);
    },
    async eraseClient(client) {
      const { entries: hash, order, version } = keys(client);
      const results = await redis.multi().zcount(order, cutoff(), '+inf').del(hash, order, version).exec();
      await redis.srem(`${prefix}clients`, client);
      return Number(results?.[0]?.[1] ?? 0);
    },
    eraseKey: (key) => eraseKeyOfEveryClient(redis, prefix, key),
  };
}

const UNTAGGED = {
  checks: /^([^{].*?)(:check:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/,
  map: /^([^{].*?)(:entries|:order|:version)$/,
};

/**
 * The upgrade of keys written before a client's keys had its hash tag: `<prefix><client>:…` of check records
 * (`redisCheckMemory`) or of a client map (`redisClientMap`) is renamed `<prefix>{<client>}:…`, keeping its
 * expiry; a key whose new name exists already is left to expire. Answers how many were renamed.
 */
export async function tagClientKeys(redis: Redis, prefix: string, kind: 'checks' | 'map'): Promise<number> {
  let renamed = 0;
  const untagged = (key: string) => UNTAGGED[kind].test(key.slice(prefix.length));
  for await (const keys of scanKeys(redis, `${prefix}*`, untagged))
    for (const key of keys) {
      const [, client, rest] = UNTAGGED[kind].exec(key.slice(prefix.length)) ?? [];
      renamed += await redis.renamenx(key, `${prefix}{${client}}${rest}`);
    }
  return renamed;
}
