import type { RedisClient } from '@spam-check/service-kit';
import { scanKeys } from './scan-keys';

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

export function redisCheckMemory(redis: RedisClient, prefix: string, retentionSeconds: number): CheckMemory {
  const key = (client: string, checkId: string) => `${prefix}{${client}}:check:${checkId}`;
  const recordKey = (candidate: string) => GENERATED_CHECK_KEY.test(candidate);
  /**
   * Each record with its value, a batch at a time. A batch holds many clients' records, so on a cluster many
   * slots: each key is read and written by a command of its own (auto-pipelined into one write per node).
   */
  async function* records() {
    for await (const keys of scanKeys(redis, `${prefix}*:check:*`, recordKey)) {
      const values = await Promise.all(keys.map((k) => redis.get(k)));
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
        const deleted = await Promise.all(matching.map((k) => redis.del(k)));
        erased += deleted.reduce((sum, count) => sum + count, 0);
      }
      return erased;
    },
    async rewriteValues(rewrite) {
      let changed = 0;
      for await (const batch of records()) {
        const writes: Promise<unknown>[] = [];
        for (const [k, value] of batch) {
          const next = rewrite(value);
          if (next === value) continue;
          // XX: a record that expired meanwhile stays gone; KEEPTTL: the rewrite does not extend its life.
          writes.push(redis.set(k, next, 'KEEPTTL', 'XX'));
          changed++;
        }
        await Promise.all(writes);
      }
      return changed;
    },
  };
}
