import type { Redis } from 'ioredis';
import { z } from 'zod';
import { env } from './config';

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
}

/** A map per client with a cap: writing beyond it drops the oldest-written entries. */
export interface ClientMap {
  get(client: string, key: string): Promise<string | undefined>;
  /** Writes `entries` and deletes `removed`, then bumps the client's version. */
  update(
    client: string,
    entries: readonly (readonly [string, string])[],
    removed?: readonly string[],
  ): Promise<void>;
  /** Every entry of a client, oldest first. */
  all(client: string): Promise<[string, string][]>;
  /** Changes whenever the client's entries change (0 for a client without any). */
  version(client: string): Promise<number>;
  clients(): Promise<string[]>;
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
  };
}

export function redisCheckMemory(redis: Redis, prefix: string, retentionSeconds: number): CheckMemory {
  const key = (client: string, checkId: string) => `${prefix}${client}:check:${checkId}`;
  return {
    async remember(client, checkId, value) {
      if (retentionSeconds === 0) return;
      await redis.set(key(client, checkId), value, 'EX', retentionSeconds);
    },
    async recall(client, checkId) {
      if (!CHECK_ID.test(checkId)) return undefined;
      return (await redis.get(key(client, checkId))) ?? undefined;
    },
  };
}

export function memoryClientMap(cap: number): ClientMap {
  const maps = new Map<string, { entries: Map<string, string>; version: number }>();
  return {
    get: (client, key) => Promise.resolve(maps.get(client)?.entries.get(key)),
    update(client, entries, removed = []) {
      let map = maps.get(client);
      if (!map) maps.set(client, (map = { entries: new Map(), version: 0 }));
      for (const key of removed) map.entries.delete(key);
      for (const [key, value] of entries) {
        map.entries.delete(key);
        map.entries.set(key, value);
      }
      while (map.entries.size > cap) map.entries.delete(map.entries.keys().next().value as string);
      map.version++;
      return Promise.resolve();
    },
    all: (client) => Promise.resolve([...(maps.get(client)?.entries ?? [])]),
    version: (client) => Promise.resolve(maps.get(client)?.version ?? 0),
    clients: () => Promise.resolve([...maps.keys()]),
  };
}

/**
 * Per client: a hash of the entries, a sorted set of their write times (to drop the oldest beyond the cap),
 * a version counter, and the set of clients (for exports).
 */
export function redisClientMap(redis: Redis, prefix: string, cap: number): ClientMap {
  const keys = (client: string) => ({
    entries: `${prefix}${client}:entries`,
    order: `${prefix}${client}:order`,
    version: `${prefix}${client}:version`,
  });
  return {
    async get(client, key) {
      return (await redis.hget(keys(client).entries, key)) ?? undefined;
    },
    async update(client, entries, removed = []) {
      const { entries: hash, order, version } = keys(client);
      const now = Date.now();
      const transaction = redis.multi();
      if (removed.length > 0) transaction.hdel(hash, ...removed).zrem(order, ...removed);
      if (entries.length > 0) {
        transaction.hset(hash, Object.fromEntries(entries));
        transaction.zadd(
          order,
          ...entries.flatMap(([key], index) => [now + index / (entries.length + 1), key]),
        );
      }
      transaction.incr(version).sadd(`${prefix}clients`, client).zcard(order);
      const results = await transaction.exec();
      const size = Number(results?.at(-1)?.[1] ?? 0);
      if (size > cap) {
        const oldest = (await redis.zpopmin(order, size - cap)).filter((_, index) => index % 2 === 0);
        if (oldest.length > 0)
          await redis
            .multi()
            .hdel(hash, ...oldest)
            .incr(version)
            .exec();
      }
    },
    async all(client) {
      const { entries: hash, order } = keys(client);
      const [ordered, values] = await Promise.all([redis.zrange(order, 0, -1), redis.hgetall(hash)]);
      return ordered.flatMap((key) =>
        key in values ? [[key, values[key] as string] as [string, string]] : [],
      );
    },
    async version(client) {
      return Number((await redis.get(keys(client).version)) ?? 0);
    },
    async clients() {
      return redis.smembers(`${prefix}clients`);
    },
  };
}
