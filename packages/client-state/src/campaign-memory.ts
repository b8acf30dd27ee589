import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Result } from 'ioredis';
import type { RedisClient } from '@spam-check/service-kit';
import { keyedHash } from './keyed-hash';
import { scanKeys } from './scan-keys';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    /** Deletes a client's field of a signature if its last report was `ref`; answers the value it deleted. */
    spamCheckCampaignWithdrawReport(key: string, field: string, ref: string): Result<string | null, Context>;
    /** Removes a signature from a client's index if its time there is still `time`. */
    spamCheckCampaignUnindex(key: string, member: string, time: number): Result<number, Context>;
  }
}

/**
 * The deployment's campaign memory (docs/design.md, Campaigns), shared by the replicas of a detector: for
 * each signature (what a detector derives from a reported text or address), the distinct sharing clients that
 * reported it as spam, each with the time of its last such report. The rules:
 * - only keyed hashes are kept: of the signature and of the client, under the deployment's PRIVACY_HASH_KEY;
 *   never a text, an address, a domain or a client id in clear;
 * - a spam report adds the client to each of its signatures; a ham report removes it again (a client
 *   withdraws only its own contribution, whether it shares or not), so replaying reports gives the same memory;
 * - a client counts for a signature for `ttlSeconds` after its own last spam report of it: another client's
 *   report keeps nobody else's alive;
 * - a client counts for a signature only while the report that last carried it is among the client's kept
 *   reports: when the detector's report store drops it (FEEDBACK_MAX_REPORTS), `withdrawDropped` withdraws
 *   each of its signatures that no newer report of the client carried since;
 * - a client's contribution is bounded: its newest `maxPerClient` signatures count, older ones are withdrawn;
 * - each client has an index of its signatures, so erasing it costs its own contribution, not the memory;
 * - every command touches one key, so the memory runs on Redis Cluster too: a signature's key carries the
 *   signature's hash as hash tag, a client's index the client's.
 */
export interface CampaignMemory {
  /** `source` names the report in the detector's own reports (its key there). */
  report(client: string, signatures: readonly string[], label: 'spam' | 'ham', source: string): Promise<void>;
  /** The detector's reports dropped the report `source`: its signatures stop counting for the client. */
  withdrawDropped(client: string, signatures: readonly string[], source: string): Promise<void>;
  /** How many distinct sharing clients reported each signature, in the order given. */
  reporters(signatures: readonly string[]): Promise<number[]>;
  /** Erasure: removes the client's contribution from every signature; answers how many it had. */
  eraseClient(client: string): Promise<number>;
  /** Erasure: deletes the memory of these signatures; answers how many clients' reports that removed. */
  eraseSignatures(signatures: readonly string[]): Promise<number>;
}

export interface CampaignMemoryOptions {
  /** The deployment's secret for keyed hashes (PRIVACY_HASH_KEY). */
  key: string;
  ttlSeconds: number;
  /** The signatures one client's contribution keeps at most (CAMPAIGN_MAX_SIGNATURES_PER_CLIENT). */
  maxPerClient: number;
}

const clientField = (key: string, client: string) => keyedHash(key, `client\n${client}`);
/** What a client's field keeps of the report that last carried a signature: 64 bits of its keyed hash. */
const reportRef = (key: string, source: string) => keyedHash(key, `report\n${source}`).slice(0, 16);
/** A field's value is `<time> <report ref>` (earlier releases: `<time>`). */
const timeOf = (value: string) => Number.parseInt(value, 10);

/** Loaded by `redisCampaignMemory`; the build copies them beside the compiled file. */
const WITHDRAW_REPORT_SCRIPT = join(__dirname, 'campaign-withdraw-report.lua');
const UNINDEX_SCRIPT = join(__dirname, 'campaign-unindex.lua');

/**
 * Redis layout: `<prefix>campaign:{<signature hash>}`, a hash of client hash → time of its last spam report
 * and the ref of that report (earlier releases kept the time only, read the same way), and
 * `<prefix>campaign-client:{<client hash>}`, a sorted set of the client's signature hashes by that time.
 * Fields written before the index existed have no index entry: they count while their time is recent, and
 * erasing a client scans the memory for them until `<prefix>campaign-indexed-since` is `ttlSeconds` old (then
 * none can count any more; a deployment that had none never scans).
 */
function redisCampaignKeys(redis: RedisClient, prefix: string, options: CampaignMemoryOptions) {
  const ttlMs = options.ttlSeconds * 1000;
  const signatureKey = (hash: string) => `${prefix}campaign:{${hash}}`;
  const indexKey = (field: string) => `${prefix}campaign-client:{${field}}`;
  const indexedSince = `${prefix}campaign-indexed-since`;
  redis.defineCommand('spamCheckCampaignWithdrawReport', {
    numberOfKeys: 1,
    lua: readFileSync(WITHDRAW_REPORT_SCRIPT, 'utf8'),
  });
  redis.defineCommand('spamCheckCampaignUnindex', {
    numberOfKeys: 1,
    lua: readFileSync(UNINDEX_SCRIPT, 'utf8'),
  });

  /** Withdraws the client's signatures past their time and beyond its bound, from both sides. */
  async function prune(field: string, now: number): Promise<void> {
    const index = indexKey(field);
    const [expired, count] = await Promise.all([
      redis.zrangebyscore(index, '-inf', now - ttlMs),
      redis.zcard(index),
    ]);
    const excess = count - expired.length - options.maxPerClient;
    const oldest = excess > 0 ? await redis.zrange(index, expired.length, expired.length + excess - 1) : [];
    await withdraw(field, [...expired, ...oldest]);
  }

  async function withdraw(field: string, hashes: readonly string[]): Promise<number> {
    if (hashes.length === 0) return 0;
    const removed = await Promise.all(hashes.map((hash) => redis.hdel(signatureKey(hash), field)));
    await redis.zrem(indexKey(field), ...hashes);
    return removed.reduce((sum, one) => sum + one, 0);
  }

  /**
   * Withdraws the signatures whose last report by the client was `ref`, then their index entries unless a
   * report since wrote them anew (each step touches one key, as Redis Cluster needs).
   */
  async function withdrawReport(field: string, ref: string, hashes: readonly string[]): Promise<void> {
    const values = await Promise.all(
      hashes.map((hash) => redis.spamCheckCampaignWithdrawReport(signatureKey(hash), field, ref)),
    );
    const withdrawn = hashes.flatMap((hash, i) => {
      const value = values[i];
      return value ? [{ hash, time: timeOf(value) }] : [];
    });
    await Promise.all(
      withdrawn.map(({ hash, time }) => redis.spamCheckCampaignUnindex(indexKey(field), hash, time)),
    );
  }

  /**
   * Notes when indexing began, once per deployment: the time if fields of earlier releases exist (erasure
   * scans for them until they are too old to count), else 1 (nothing to scan for, ever).
   */
  async function markIndexed(): Promise<void> {
    if (await redis.exists(indexedSince)) return;
    let unindexed = false;
    // Leaving the loop ends the scan (of every master, on a cluster): one key is enough to know.
    for await (const _batch of scanKeys(redis, `${prefix}campaign:{*}`, () => true)) {
      unindexed = true;
      break;
    }
    await redis.set(indexedSince, unindexed ? Date.now() : 1, 'NX');
  }

  async function eraseUnindexed(field: string): Promise<number> {
    const since = Number(await redis.get(indexedSince));
    if (since > 0 && Date.now() - since > ttlMs) return 0;
    let erased = 0;
    for await (const batch of scanKeys(redis, `${prefix}campaign:{*}`, () => true))
      for (const key of batch) erased += await redis.hdel(key, field);
    return erased;
  }
  return { signatureKey, indexKey, withdraw, withdrawReport, prune, markIndexed, eraseUnindexed };
}

/** The campaign memory in Redis, shared by a detector's replicas (layout: `redisCampaignKeys`). */
export function redisCampaignMemory(
  redis: RedisClient,
  prefix: string,
  options: CampaignMemoryOptions,
): CampaignMemory {
  const ttlMs = options.ttlSeconds * 1000;
  const keys = redisCampaignKeys(redis, prefix, options);
  const { signatureKey, indexKey, withdraw, prune, markIndexed, eraseUnindexed } = keys;
  let indexing: Promise<unknown> | undefined;
  return {
    async report(client, signatures, label, source) {
      const field = clientField(options.key, client);
      const hashes = signatures.map((signature) => keyedHash(options.key, signature));
      if (label === 'ham') {
        await withdraw(field, hashes);
        return;
      }
      indexing ??= markIndexed();
      await indexing;
      const now = Date.now();
      const index = indexKey(field);
      const value = `${now} ${reportRef(options.key, source)}`;
      await Promise.all([
        ...hashes.map((hash) =>
          redis.multi().hset(signatureKey(hash), field, value).pexpire(signatureKey(hash), ttlMs).exec(),
        ),
        hashes.length > 0
          ? redis
              .multi()
              .zadd(index, ...hashes.flatMap((hash) => [now, hash]))
              .pexpire(index, ttlMs)
              .exec()
          : undefined,
      ]);
      await prune(field, now);
    },
    withdrawDropped: (client, signatures, source) =>
      keys.withdrawReport(
        clientField(options.key, client),
        reportRef(options.key, source),
        signatures.map((signature) => keyedHash(options.key, signature)),
      ),
    async reporters(signatures) {
      const cutoff = Date.now() - ttlMs;
      const values = await Promise.all(
        signatures.map((signature) => redis.hvals(signatureKey(keyedHash(options.key, signature)))),
      );
      return values.map((fields) => fields.filter((value) => timeOf(value) > cutoff).length);
    },
    async eraseClient(client) {
      const field = clientField(options.key, client);
      const indexed = await withdraw(field, await redis.zrange(indexKey(field), 0, -1));
      await redis.del(indexKey(field));
      return indexed + (await eraseUnindexed(field));
    },
    async eraseSignatures(signatures) {
      let erased = 0;
      for (const signature of signatures) {
        const key = signatureKey(keyedHash(options.key, signature));
        const results = await redis.multi().hlen(key).del(key).exec();
        erased += Number(results?.[0]?.[1] ?? 0);
      }
      return erased;
    },
  };
}

/** Embedded mode: the same memory in this process (one replica; nothing is shared beyond it). */
export function memoryCampaignMemory(options: CampaignMemoryOptions, now = () => Date.now()): CampaignMemory {
  const ttlMs = options.ttlSeconds * 1000;
  /** Signature hash → client hash → time and ref of its last spam report. */
  const signatures = new Map<string, Map<string, { at: number; ref: string }>>();
  /** Client hash → its signature hashes, oldest report first. */
  const indexes = new Map<string, Map<string, number>>();
  const withdraw = (field: string, hashes: Iterable<string>) => {
    let removed = 0;
    const index = indexes.get(field);
    for (const hash of [...hashes]) {
      const reporters = signatures.get(hash);
      if (reporters?.delete(field)) removed++;
      if (reporters?.size === 0) signatures.delete(hash);
      index?.delete(hash);
    }
    if (index?.size === 0) indexes.delete(field);
    return removed;
  };
  return {
    report(client, reported, label, source) {
      const field = clientField(options.key, client);
      const hashes = reported.map((signature) => keyedHash(options.key, signature));
      if (label === 'ham') {
        withdraw(field, hashes);
        return Promise.resolve();
      }
      const at = now();
      const ref = reportRef(options.key, source);
      const index = indexes.get(field) ?? new Map<string, number>();
      indexes.set(field, index);
      for (const hash of hashes) {
        const reporters = signatures.get(hash) ?? new Map<string, { at: number; ref: string }>();
        signatures.set(hash, reporters.set(field, { at, ref }));
        index.delete(hash);
        index.set(hash, at);
      }
      const stale = [...index].filter(([, time]) => time <= at - ttlMs).map(([hash]) => hash);
      const excess = index.size - stale.length - options.maxPerClient;
      const oldest = [...index.keys()].filter((hash) => !stale.includes(hash)).slice(0, Math.max(0, excess));
      withdraw(field, [...stale, ...oldest]);
      return Promise.resolve();
    },
    withdrawDropped(client, reported, source) {
      const field = clientField(options.key, client);
      const ref = reportRef(options.key, source);
      const hashes = reported.map((signature) => keyedHash(options.key, signature));
      withdraw(
        field,
        hashes.filter((hash) => signatures.get(hash)?.get(field)?.ref === ref),
      );
      return Promise.resolve();
    },
    reporters(reported) {
      const cutoff = now() - ttlMs;
      return Promise.resolve(
        reported.map((signature) => {
          const reporters = signatures.get(keyedHash(options.key, signature));
          return [...(reporters?.values() ?? [])].filter(({ at }) => at > cutoff).length;
        }),
      );
    },
    eraseClient(client) {
      const field = clientField(options.key, client);
      return Promise.resolve(withdraw(field, indexes.get(field)?.keys() ?? []));
    },
    eraseSignatures(reported) {
      let erased = 0;
      for (const signature of reported) {
        const hash = keyedHash(options.key, signature);
        const reporters = signatures.get(hash);
        for (const field of reporters?.keys() ?? []) indexes.get(field)?.delete(hash);
        erased += reporters?.size ?? 0;
        signatures.delete(hash);
      }
      return Promise.resolve(erased);
    },
  };
}
