import type { FeedbackLabel } from '@spam-check/contracts';
import type { RedisClient } from '@spam-check/service-kit';
import type { ListedRow, Position, ReadRows, StoredItem } from '../domain/review-page';

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

/**
 * A client's write (KEYS: order, items, reports; ARGV: cap, retention seconds, cutoff time, then time, id and
 * value per check). Expired checks go (a bounded number per write; the rest with the keys' TTL), the checks
 * are added, the oldest beyond the cap go, and all three keys get the retention as their TTL.
 */
const ADD_SCRIPT = `
local order, items, reports = KEYS[1], KEYS[2], KEYS[3]
local cap, retention, cutoff = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3]
local function drop(ids)
  if #ids == 0 then return end
  redis.call('HDEL', items, unpack(ids))
  redis.call('HDEL', reports, unpack(ids))
end
local expired = redis.call('ZRANGEBYSCORE', order, '-inf', '(' .. cutoff, 'LIMIT', 0, 1000)
if #expired > 0 then
  redis.call('ZREM', order, unpack(expired))
  drop(expired)
end
for i = 4, #ARGV, 3 do
  redis.call('ZADD', order, ARGV[i], ARGV[i + 1])
  redis.call('HSET', items, ARGV[i + 1], ARGV[i + 2])
end
local size = redis.call('ZCARD', order)
if size > cap then
  local popped = redis.call('ZPOPMIN', order, size - cap)
  local oldest = {}
  for i = 1, #popped, 2 do oldest[#oldest + 1] = popped[i] end
  for i = 1, #oldest, 1000 do drop({ unpack(oldest, i, math.min(i + 999, #oldest)) }) end
end
redis.call('EXPIRE', order, retention)
redis.call('EXPIRE', items, retention)
redis.call('EXPIRE', reports, retention)
return size
`;

/**
 * Rows newest first (KEYS: order, items, reports; ARGV: from time, oldest time, from id or '', count): the
 * checks of the time \`from\` whose id is not below the from id were listed already and are skipped.
 */
const ROWS_SCRIPT = `
local order, items, reports = KEYS[1], KEYS[2], KEYS[3]
local from, oldest, after, count = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local ids, times = {}, {}
local offset = 0
while #ids < count do
  local batch = redis.call('ZREVRANGEBYSCORE', order, from, oldest, 'WITHSCORES', 'LIMIT', offset, count)
  for i = 1, #batch, 2 do
    local id, at = batch[i], batch[i + 1]
    local seen = after ~= '' and tonumber(at) == tonumber(from) and id >= after
    if not seen and #ids < count then
      ids[#ids + 1] = id
      times[#times + 1] = at
    end
  end
  if #batch < 2 * count then break end
  offset = offset + count
end
if #ids == 0 then return {} end
local values = redis.call('HMGET', items, unpack(ids))
local labels = redis.call('HMGET', reports, unpack(ids))
local out = {}
for i = 1, #ids do
  out[#out + 1] = ids[i]
  out[#out + 1] = times[i]
  out[#out + 1] = values[i] or ''
  out[#out + 1] = labels[i] or ''
end
return out
`;

type Script = (...args: (string | number)[]) => Promise<unknown>;
type ReviewKeys = ReturnType<typeof reviewKeys>;

function reviewKeys(prefix: string, client: string) {
  return {
    order: `${prefix}{${client}}:order`,
    items: `${prefix}{${client}}:items`,
    reports: `${prefix}{${client}}:reports`,
    content: (id: string) => `${prefix}{${client}}:content:${id}`,
  };
}

/** A client's rows through ROWS_SCRIPT: one call, however many checks the client has. */
function readRows(script: Script, k: ReviewKeys): ReadRows {
  return async (from: Position, oldest: number, count: number) => {
    const flat = (await script(k.order, k.items, k.reports, from.at, oldest, from.id, count)) as string[];
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
  redis.defineCommand('spamCheckReviewAdd', { numberOfKeys: 3, lua: ADD_SCRIPT });
  redis.defineCommand('spamCheckReviewRows', { numberOfKeys: 3, lua: ROWS_SCRIPT });
  const scripts = redis as unknown as Record<'spamCheckReviewRows', Script>;
  // A command ioredis defined on this connection: called on it, not detached.
  const readScript: Script = (...args) => scripts.spamCheckReviewRows.apply(redis, args);
  const retentionMs = options.retentionSeconds * 1000;

  return {
    async add(client, entries) {
      if (entries.length === 0) return;
      const k = keys(client);
      const args: (string | number)[] = [
        options.maxPerClient,
        options.retentionSeconds,
        Date.now() - retentionMs,
      ];
      for (const entry of entries) args.push(entry.at, entry.item.id, encode(entry));
      const pipeline = redis.pipeline();
      void (pipeline as unknown as Record<string, Script>).spamCheckReviewAdd!(
        k.order,
        k.items,
        k.reports,
        ...args,
      );
      for (const entry of entries)
        if (entry.content)
          pipeline.set(k.content(entry.item.id), entry.content.sealed, 'EX', entry.content.seconds);
      const results = (await pipeline.exec()) ?? [];
      for (const [error] of results) if (error) throw error;
      // The set of clients has no client's hash tag: on a cluster it lives in another slot than the pipeline.
      await redis.sadd(clients, client);
    },
    rows: (client) => readRows(readScript, keys(client)),
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
  const byTime = (a: Held, b: Held) =>
    a.entry.at - b.entry.at ||
    (a.entry.item.id < b.entry.item.id ? -1 : a.entry.item.id > b.entry.item.id ? 1 : 0);
  return {
    add(client, entries) {
      const list = live(client);
      for (const entry of entries)
        list.push({
          entry,
          report: null,
          contentUntil: entry.content ? Date.now() + entry.content.seconds * 1000 : 0,
        });
      // Nearly always appended in order already, which the sort walks once.
      list.sort(byTime);
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
