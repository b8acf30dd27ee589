import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Result } from 'ioredis';
import type { RedisClient } from '@spam-check/service-kit';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    /**
     * A client's write in one round trip (`client-map-update.lua`); answers the entries the cap dropped, as
     * key, value, key, value, ...
     */
    spamCheckClientMapUpdate(
      hash: string,
      order: string,
      ...args: (string | number)[]
    ): Result<(string | null)[], Context>;
  }
}

/** Loaded by `redisClientMap`; the build copies it beside the compiled file. */
const UPDATE_SCRIPT = join(__dirname, 'client-map-update.lua');

/**
 * A map per client with a cap: writing beyond it drops the oldest-written entries. With a retention, an entry
 * older than it is gone: never read again, deleted at the client's next write, and a client's
 * keys expire as a whole once its newest entry is older than it.
 */
export interface ClientMap {
  get(client: string, key: string): Promise<string | undefined>;
  /** The values of `keys`, in their order (one read, however many keys). */
  getMany(client: string, keys: readonly string[]): Promise<(string | undefined)[]>;
  /** Writes `entries` and deletes `removed`; answers the entries the cap dropped, oldest first. */
  update(
    client: string,
    entries: readonly (readonly [string, string])[],
    removed?: readonly string[],
  ): Promise<[string, string][]>;
  /** Every entry of a client, oldest first. */
  all(client: string): Promise<[string, string][]>;
  clients(): Promise<string[]>;
  /** Deletes every entry of a client (erasure); answers how many there were. */
  eraseClient(client: string): Promise<number>;
  /** Deletes the entry `key` of every client (erasure); answers how many there were. */
  eraseKey(key: string): Promise<number>;
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
      if (!entries) return Promise.resolve(keys.map(() => undefined));
      // One clock reading for the whole read, not one per key (a check reads hundreds).
      const oldest = retentionSeconds === undefined ? -Infinity : now() - retentionSeconds * 1000;
      return Promise.resolve(
        keys.map((key) => {
          const entry = entries.get(key);
          return entry && entry.at > oldest ? entry.value : undefined;
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
      const dropped: [string, string][] = [];
      for (const [key, entry] of map) {
        if (map.size <= cap) break;
        dropped.push([key, entry.value]);
        map.delete(key);
      }
      return Promise.resolve(dropped);
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
 * The values of `fields` in a client's map; with a retention (`oldest`, the first write time still kept), an
 * expired entry reads as missing. The write times are read only when the client has expired entries at all
 * (rare: they go at its next write); a check then reads its fields' values and one count, not 512 scores.
 */
async function readMany(
  redis: RedisClient,
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

/** `[key, value, key, value, ...]` as pairs; a key without its value (written by no release) is left out. */
function pairs(flat: readonly (string | null)[]): [string, string][] {
  const result: [string, string][] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const [key, value] = [flat[i], flat[i + 1]];
    if (key && value !== null && value !== undefined) result.push([key, value]);
  }
  return result;
}

/** Removes `key` from every client's map; answers how many entries went. */
async function eraseKeyOfEveryClient(redis: RedisClient, prefix: string, key: string): Promise<number> {
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
  redis: RedisClient,
  prefix: string,
  cap: number,
  retentionSeconds?: number,
): ClientMap {
  const keys = (client: string) => clientMapKeys(prefix, client);
  /** Write times before this are expired (`(` makes the bound exclusive for ZRANGEBYSCORE). */
  const cutoff = () => (retentionSeconds === undefined ? 0 : Date.now() - retentionSeconds * 1000);
  redis.defineCommand('spamCheckClientMapUpdate', {
    numberOfKeys: 2,
    lua: readFileSync(UPDATE_SCRIPT, 'utf8'),
  });
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
      const [dropped] = await Promise.all([
        redis.spamCheckClientMapUpdate(hash, order, ...args),
        redis.sadd(`${prefix}clients`, client),
      ]);
      return pairs(dropped);
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
