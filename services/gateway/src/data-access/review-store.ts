import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FeedbackLabel } from '@spam-check/contracts';
import type { RedisClient } from '@spam-check/service-kit';
import type { Result } from 'ioredis';
import type { ListedRow, Position, ReadRows, StoredItem } from '../domain/review-page';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    /** `review-add.lua`: a client's checks added, capped and given the retention; answers the count. */
    spamCheckReviewAdd(
      order: string,
      items: string,
      reports: string,
      cap: number,
      retentionSeconds: number,
      cutoff: number,
      ...checks: (string | number)[]
    ): Result<number, Context>;
    /** `review-rows.lua`: rows newest first, flat (id, time, item, report per row). */
    spamCheckReviewRows(
      order: string,
      items: string,
      reports: string,
      from: number,
      oldest: number,
      after: string,
      count: number,
    ): Result<string[], Context>;
  }
}

/** A check as the review list keeps it: the item, its time, the address's keyed hash, its sealed content. */
export interface ReviewEntry {
  at: number;
  item: StoredItem;
  /** The keyed hash of the checked address, so that erasure of the address finds the item. */
  emailHash?: string | undefined;
  /** The submitted fields, encrypted, and how long they are kept (never longer than the item). */
  content?: { sealed: string; seconds: number } | undefined;
}

export interface ReviewStore {
  add(client: string, entries: readonly ReviewEntry[]): Promise<void>;
  rows(client: string): ReadRows;
  /** One check the client still lists, with its last report; undefined when it is not listed. */
  row(client: string, id: string): Promise<ListedRow | undefined>;
  /** The sealed content of each id (undefined when none is kept, or no longer). */
  contents(client: string, ids: readonly string[]): Promise<(string | undefined)[]>;
  /** Records the client's last report on a check it still lists; false when the check is not listed. */
  report(client: string, id: string, label: FeedbackLabel, at: Date): Promise<boolean>;
  eraseClient(client: string): Promise<number>;
  /** Deletes, for every client, the checks of the address with this keyed hash; answers how many. */
  eraseEmail(emailHash: string): Promise<number>;
}

interface StoredValue {
  item: StoredItem;
  e?: string;
}

const encode = (entry: ReviewEntry) =>
  JSON.stringify(
    entry.emailHash === undefined ? { item: entry.item } : { item: entry.item, e: entry.emailHash },
  );

/** Loaded by `redisReviewStore`; the build copies them beside the compiled file. */
const ADD_SCRIPT = join(__dirname, 'review-add.lua');
const ROWS_SCRIPT = join(__dirname, 'review-rows.lua');

type ReviewKeys = ReturnType<typeof reviewKeys>;

function reviewKeys(prefix: string, client: string) {
  return {
    order: `${prefix}{${client}}:order`,
    items: `${prefix}{${client}}:items`,
    reports: `${prefix}{${client}}:reports`,
    content: (id: string) => `${prefix}{${client}}:content:${id}`,
  };
}

/** A client's rows through `review-rows.lua`: one call, however many checks the client has. */
function readRows(redis: RedisClient, k: ReviewKeys): ReadRows {
  return async (from: Position, oldest: number, count: number) => {
    const flat = await redis.spamCheckReviewRows(
      k.order,
      k.items,
      k.reports,
      from.at,
      oldest,
      from.id,
      count,
    );
    const rows: ListedRow[] = [];
    for (let i = 0; i < flat.length; i += 4) {
      const row = rowOf(flat[i]!, Number(flat[i + 1]), flat[i + 2]!, flat[i + 3]!);
      if (row) rows.push(row);
    }
    return rows;
  };
}

/** Deletes checks of a client by id, with their reports and kept content; answers how many were listed. */
async function eraseIds(redis: RedisClient, k: ReviewKeys, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const results = await redis
    .multi()
    .zrem(k.order, ...ids)
    .hdel(k.items, ...ids)
    .hdel(k.reports, ...ids)
    .del(...ids.map(k.content))
    .exec();
  return Number(results?.[0]?.[1] ?? 0);
}

function rowOf(id: string, at: number, value: string, report: string): ListedRow | undefined {
  if (value === '') return undefined;
  const stored = JSON.parse(value) as StoredValue;
  return {
    position: { at, id },
    item: stored.item,
    report: report === '' ? null : (JSON.parse(report) as ListedRow['report']),
  };
}

/** One listed check of a client, or undefined once it has left the list. */
async function readRow(redis: RedisClient, k: ReturnType<typeof reviewKeys>, id: string) {
  const [at, value, report] = await Promise.all([
    redis.zscore(k.order, id),
    redis.hget(k.items, id),
    redis.hget(k.reports, id),
  ]);
  if (at === null || value === null) return undefined;
  return rowOf(id, Number(at), value, report ?? '');
}

/**
 * Per client, under the hash tag `{client}` (one slot on Redis Cluster): a sorted set of check ids by time,
 * a hash of the items, a hash of the last reports, and one key per kept content (its own TTL, at most the
 * retention). The set of clients with checks serves erasure by address. A first page is one script call
 * (a range of the sorted set and two HMGETs), whatever the client's number of checks.
 */
export function redisReviewStore(
  redis: RedisClient,
  prefix: string,
  options: { retentionSeconds: number; maxPerClient: number },
): ReviewStore {
  const keys = (client: string) => reviewKeys(prefix, client);
  const clients = `${prefix}clients`;
  redis.defineCommand('spamCheckReviewAdd', { numberOfKeys: 3, lua: readFileSync(ADD_SCRIPT, 'utf8') });
  redis.defineCommand('spamCheckReviewRows', { numberOfKeys: 3, lua: readFileSync(ROWS_SCRIPT, 'utf8') });
  const retentionMs = options.retentionSeconds * 1000;

  return {
    async add(client, entries) {
      if (entries.length === 0) return;
      const k = keys(client);
      const checks: (string | number)[] = [];
      for (const entry of entries) checks.push(entry.at, entry.item.id, encode(entry));
      // Sent in one tick, so that they leave with the other commands of that tick in one write
      // (auto-pipelining), not as a pipeline and a command of their own. The set of clients has no client's
      // hash tag: on a cluster it lives in another slot, and goes to its own node.
      await Promise.all([
        redis.spamCheckReviewAdd(
          k.order,
          k.items,
          k.reports,
          options.maxPerClient,
          options.retentionSeconds,
          Date.now() - retentionMs,
          ...checks,
        ),
        ...entries.map((entry) =>
          entry.content
            ? redis.set(k.content(entry.item.id), entry.content.sealed, 'EX', entry.content.seconds)
            : undefined,
        ),
        redis.sadd(clients, client),
      ]);
    },
    rows: (client) => readRows(redis, keys(client)),
    row: (client, id) => readRow(redis, keys(client), id),
    async contents(client, ids) {
      if (ids.length === 0) return [];
      return (await redis.mget(ids.map(keys(client).content))).map((value) => value ?? undefined);
    },
    async report(client, id, label, at) {
      const k = keys(client);
      if ((await redis.zscore(k.order, id)) === null) return false;
      await redis.hset(k.reports, id, JSON.stringify({ label, at: at.toISOString() }));
      return true;
    },
    async eraseClient(client) {
      const k = keys(client);
      const ids = await redis.zrange(k.order, 0, -1);
      const erased = await eraseIds(redis, k, ids);
      await redis.del(k.order, k.items, k.reports);
      await redis.srem(clients, client);
      return erased;
    },
    async eraseEmail(emailHash) {
      let erased = 0;
      const marker = `"e":"${emailHash}"`;
      for (const client of await redis.smembers(clients)) {
        const matching: string[] = [];
        const stream = redis.hscanStream(keys(client).items, { count: 1000 }) as AsyncIterable<string[]>;
        for await (const flat of stream)
          for (let i = 0; i < flat.length; i += 2) if (flat[i + 1]!.includes(marker)) matching.push(flat[i]!);
        erased += await eraseIds(redis, keys(client), matching);
      }
      return erased;
    },
  };
}

/** A check held by the memory store. */
interface Held {
  entry: ReviewEntry;
  report: ListedRow['report'];
  contentUntil: number;
}

const rowOfHeld = ({ entry, report }: Held): ListedRow => ({
  position: { at: entry.at, id: entry.item.id },
  item: entry.item,
  report,
});

const byTime = (a: Held, b: Held) =>
  a.entry.at - b.entry.at ||
  (a.entry.item.id < b.entry.item.id ? -1 : a.entry.item.id > b.entry.item.id ? 1 : 0);

/** Inserts in time order: nearly always at the end, where the search starts and stops at once. */
function insertInOrder(list: Held[], held: Held): void {
  let at = list.length;
  while (at > 0 && byTime(list[at - 1]!, held) > 0) at -= 1;
  list.splice(at, 0, held);
}

const contentUntil = (entry: ReviewEntry) => (entry.content ? Date.now() + entry.content.seconds * 1000 : 0);

/**
 * The same in the memory of the process (embedded mode): per client, its checks in time order, capped, with
 * expired ones dropped as they are met. Lost on restart, like everything in embedded mode.
 */
export function memoryReviewStore(options: { retentionSeconds: number; maxPerClient: number }): ReviewStore {
  const lists = new Map<string, Held[]>();
  const oldest = () => Date.now() - options.retentionSeconds * 1000;
  const live = (client: string) => {
    const list = lists.get(client) ?? [];
    const first = list.findIndex((held) => held.entry.at >= oldest());
    if (first !== 0) list.splice(0, first === -1 ? list.length : first);
    return list;
  };
  const find = (client: string, id: string) => live(client).find((held) => held.entry.item.id === id);
  const eraseWhere = (client: string, erased: (held: Held) => boolean) => {
    const list = live(client);
    const kept = list.filter((held) => !erased(held));
    lists.set(client, kept);
    return list.length - kept.length;
  };
  return {
    add(client, entries) {
      const list = live(client);
      for (const entry of entries)
        insertInOrder(list, { entry, report: null, contentUntil: contentUntil(entry) });
      if (list.length > options.maxPerClient) list.splice(0, list.length - options.maxPerClient);
      lists.set(client, list);
      return Promise.resolve();
    },
    rows(client) {
      return (from, since, count) => {
        const list = live(client);
        const rows: ListedRow[] = [];
        for (let i = list.length - 1; i >= 0 && rows.length < count; i -= 1) {
          const { entry } = list[i]!;
          if (entry.at < since) break;
          const listed =
            entry.at > from.at || (entry.at === from.at && from.id !== '' && entry.item.id >= from.id);
          if (!listed) rows.push(rowOfHeld(list[i]!));
        }
        return Promise.resolve(rows);
      };
    },
    row(client, id) {
      const held = find(client, id);
      return Promise.resolve(held && rowOfHeld(held));
    },
    contents(client, ids) {
      return Promise.resolve(
        ids.map((id) => {
          const held = find(client, id);
          return held && held.contentUntil > Date.now() ? held.entry.content?.sealed : undefined;
        }),
      );
    },
    report(client, id, label, at) {
      const held = find(client, id);
      if (held) held.report = { label, at: at.toISOString() };
      return Promise.resolve(held !== undefined);
    },
    eraseClient(client) {
      const erased = live(client).length;
      lists.delete(client);
      return Promise.resolve(erased);
    },
    eraseEmail(emailHash) {
      let erased = 0;
      for (const client of lists.keys())
        erased += eraseWhere(client, (held) => held.entry.emailHash === emailHash);
      return Promise.resolve(erased);
    },
  };
}
