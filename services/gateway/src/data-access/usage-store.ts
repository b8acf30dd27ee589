import type { AdminAction, ClientStats, RecentFeedbackEntry, Verdict } from '@spam-check/contracts';
import type { Counter, Logger } from '@spam-check/service-kit';
import type { RedisClient } from '@spam-check/service-kit';
import {
  CHECK_KINDS,
  addCounts,
  dayKey,
  HOUR_MS,
  LATENCY_BOUNDS_MS,
  VERDICTS,
  feedbackField,
  hourKey,
  hoursOf,
  intervalStarts,
  latencyBucket,
  latencyField,
  latencyPercentile,
  reasonField,
  topReasons,
  verdictCounts,
  verdictField,
  type CheckKind,
  type Counts,
} from '../domain/usage';

/** Counts are kept this long (the stats answer covers at least 30 days). */
export const RETENTION_SECONDS = 32 * 24 * 3600;
const RECENT_ACTIONS = 50;
const RECENT_FEEDBACK = 50;
const TOP_REASONS = 10;
/**
 * How long check counts are summed in memory before one pipeline writes them. Per check that is a few map
 * updates instead of five Redis commands (the gateway's and Redis's largest cost per check after the socket
 * writes); the price is that the stats answer lags by up to this long, and a crash loses at most this much.
 */
const FLUSH_MS = 100;

export interface CheckRecord {
  clientId: string;
  kind: CheckKind;
  verdict: Verdict;
  reasons: readonly string[];
  durationMs: number;
}

export interface UsageStore {
  /**
   * Fire and forget: never throws, never delays the check. Counts are summed in memory and written every
   * FLUSH_MS (see redisUsageStore); a batch Redis did not take is logged and counted as lost.
   */
  recordCheck(record: CheckRecord): void;
  /** Writes the counts not yet written (at shutdown, before the Redis connection closes). */
  flush(): Promise<void>;
  /**
   * The hook for the feedback endpoint (issue #12): one accepted report by the client, counted by label and
   * kept in its recent reports (what was reported, never the address or text). Fire and forget.
   */
  recordFeedback(clientId: string, report: RecentFeedbackEntry): void;
  /** The client's last reports, newest first (at most RECENT_FEEDBACK). */
  recentFeedback(clientId: string, limit: number): Promise<RecentFeedbackEntry[]>;
  /** Deletes the client's recent reports (erasure; its aggregate counts stay); answers how many there were. */
  eraseRecentFeedback(clientId: string): Promise<number>;
  recordAdminAction(action: AdminAction): Promise<void>;
  stats(clientId: string, from: Date, to: Date, interval: 'hour' | 'day'): Promise<ClientStats>;
}

type UsageKeys = ReturnType<typeof usageKeys>;

function usageKeys(prefix: string) {
  return {
    hourly: (clientId: string, at: Date) => `${prefix}usage:${clientId}:h:${hourKey(at)}`,
    daily: (clientId: string, at: Date) => `${prefix}usage:${clientId}:d:${dayKey(at)}`,
    actions: (clientId: string) => `${prefix}admin-actions:${clientId}`,
    reports: (clientId: string) => `${prefix}feedback-recent:${clientId}`,
  };
}

/**
 * Adds an hour's summed counts to the hourly and daily hashes; rejects when Redis refuses. The commands are
 * issued together, not as one pipeline: the connection's auto-pipelining sends them in one write per node,
 * and on a cluster the clients' keys live on different nodes, which one pipeline cannot reach.
 */
async function writeCounts(redis: RedisClient, keys: UsageKeys, batch: PendingCounts): Promise<void> {
  const at = new Date(batch.hour * HOUR_MS);
  const writes: Promise<unknown>[] = [];
  for (const [clientId, tally] of batch.clients) {
    const hour = keys.hourly(clientId, at);
    for (const [field, count] of tally.hour) writes.push(redis.hincrby(hour, field, count));
    writes.push(redis.expire(hour, RETENTION_SECONDS));
    if (tally.reasons.size === 0) continue;
    const day = keys.daily(clientId, at);
    for (const [code, count] of tally.reasons) writes.push(redis.hincrby(day, reasonField(code), count));
    writes.push(redis.expire(day, RETENTION_SECONDS));
  }
  await Promise.all(writes);
}

/** A client's statistics from its hourly and daily hashes (as numbers) and its recent admin actions. */
function summarise(
  request: { clientId: string; from: Date; to: Date; interval: 'hour' | 'day'; starts: Date[] },
  hourCounts: Counts[],
  dayCounts: Counts[],
  actions: string[],
): ClientStats {
  const perInterval = request.interval === 'hour' ? 1 : 24;
  const totals: Counts = {};
  const series = request.starts.map((start, i) => {
    const counts = hourCounts
      .slice(i * perInterval, (i + 1) * perInterval)
      .reduce<Counts>((sum, hour) => addCounts(sum, hour), {});
    addCounts(totals, counts);
    return {
      start: start.toISOString(),
      checks: {
        mail: verdictCounts(counts, 'mail'),
        text: verdictCounts(counts, 'text'),
        hybrid: verdictCounts(counts, 'hybrid'),
      },
    };
  });
  const dayTotals = dayCounts.reduce<Counts>((sum, day) => addCounts(sum, day), {});
  const latency = (kind: CheckKind) => ({
    p50: latencyPercentile(totals, kind, 50),
    p99: latencyPercentile(totals, kind, 99),
  });
  return {
    client_id: request.clientId,
    from: request.from.toISOString(),
    to: request.to.toISOString(),
    interval: request.interval,
    series,
    totals: {
      mail: verdictCounts(totals, 'mail'),
      text: verdictCounts(totals, 'text'),
      hybrid: verdictCounts(totals, 'hybrid'),
    },
    top_reasons: topReasons(dayTotals, TOP_REASONS),
    feedback: { spam: dayTotals[feedbackField('spam')] ?? 0, ham: dayTotals[feedbackField('ham')] ?? 0 },
    latency_ms: Object.fromEntries(
      CHECK_KINDS.map((kind) => [kind, latency(kind)]),
    ) as ClientStats['latency_ms'],
    recent_admin_actions: actions.map((raw) => JSON.parse(raw) as AdminAction),
  };
}

const numbers = (hash: unknown): Counts =>
  Object.fromEntries(Object.entries((hash ?? {}) as Record<string, string>).map(([k, v]) => [k, Number(v)]));

/** A client's statistics: its hashes over the period and its admin actions, read together (see writeCounts). */
async function readStats(
  redis: RedisClient,
  keys: UsageKeys,
  request: { clientId: string; from: Date; to: Date; interval: 'hour' | 'day' },
): Promise<ClientStats> {
  const { clientId, from, to, interval } = request;
  const starts = intervalStarts(from, to, interval);
  const hours = starts.flatMap((start) => hoursOf(start, interval));
  const days = intervalStarts(from, to, 'day');
  const [hourCounts, dayCounts, actions] = await Promise.all([
    Promise.all(hours.map((hour) => redis.hgetall(keys.hourly(clientId, hour)))),
    Promise.all(days.map((day) => redis.hgetall(keys.daily(clientId, day)))),
    redis.lrange(keys.actions(clientId), 0, RECENT_ACTIONS - 1),
  ]);
  return summarise({ ...request, starts }, hourCounts.map(numbers), dayCounts.map(numbers), actions);
}

/**
 * Per-client usage in Redis (see README "Usage statistics" for the layout and its memory bound): one hash per
 * client and UTC hour (checks per kind and verdict, latency histogram per kind), one per client and UTC day
 * (reason codes, feedback), each expiring after RETENTION_SECONDS, and the last RECENT_ACTIONS admin actions
 * per client in a capped list.
 */
export function redisUsageStore(options: {
  redis: RedisClient;
  prefix: string;
  logger: Logger;
  lost: Counter<'kind'>;
}): UsageStore {
  const { redis, logger } = options;
  const keys = usageKeys(options.prefix);
  const lost = (kind: string, count: number, error: unknown, about: object) => {
    options.lost.inc({ kind }, count);
    logger.warn({ err: error, ...about }, 'usage count lost (Redis did not take it)');
  };

  let pending: PendingCounts | undefined;
  let timer: NodeJS.Timeout | undefined;
  const flush = async () => {
    clearTimeout(timer);
    timer = undefined;
    const batch = pending;
    pending = undefined;
    if (!batch) return;
    await writeCounts(redis, keys, batch).catch((error: unknown) =>
      lost('check', batch.checks, error, {
        lost_checks: batch.checks,
        client_ids: [...batch.clients.keys()],
      }),
    );
  };

  return {
    recordCheck(record) {
      const hour = Math.floor(Date.now() / HOUR_MS);
      // A new UTC hour: what was summed belongs to the last one and is written now.
      if (pending && pending.hour !== hour) void flush();
      pending ??= new PendingCounts(hour);
      pending.add(record);
      timer ??= setTimeout(() => void flush(), FLUSH_MS).unref();
    },
    flush,
    recordFeedback(clientId, report) {
      const day = keys.daily(clientId, new Date());
      const recent = keys.reports(clientId);
      Promise.all([
        redis.hincrby(day, feedbackField(report.label), 1),
        redis.expire(day, RETENTION_SECONDS),
        redis.lpush(recent, JSON.stringify(report)),
        redis.ltrim(recent, 0, RECENT_FEEDBACK - 1),
        redis.expire(recent, RETENTION_SECONDS),
      ]).catch((error: unknown) => lost('feedback', 1, error, { client_id: clientId, lost: 'feedback' }));
    },
    async recentFeedback(clientId, limit) {
      const raw = await redis.lrange(keys.reports(clientId), 0, Math.min(limit, RECENT_FEEDBACK) - 1);
      return raw.map((entry) => JSON.parse(entry) as RecentFeedbackEntry);
    },
    async eraseRecentFeedback(clientId) {
      const key = keys.reports(clientId);
      const [[, count]] = ((await redis.multi().llen(key).del(key).exec()) ?? [[null, 0]]) as [
        [unknown, number],
      ];
      return count;
    },
    async recordAdminAction(action) {
      const key = keys.actions(action.client_id);
      await redis
        .multi()
        .lpush(key, JSON.stringify(action))
        .ltrim(key, 0, RECENT_ACTIONS - 1)
        .expire(key, RETENTION_SECONDS)
        .exec();
    },
    stats: (clientId, from, to, interval) => readStats(redis, keys, { clientId, from, to, interval }),
  };
}

/** The hash fields a check adds to, per kind: its verdict's and its latency bucket's. */
const FIELDS = Object.fromEntries(
  CHECK_KINDS.map((kind) => [
    kind,
    {
      verdict: Object.fromEntries(VERDICTS.map((verdict) => [verdict, verdictField(kind, verdict)])),
      latency: Array.from({ length: LATENCY_BOUNDS_MS.length + 1 }, (_, bucket) =>
        latencyField(kind, bucket),
      ),
    },
  ]),
) as Record<CheckKind, { verdict: Record<Verdict, string>; latency: string[] }>;

/** One client's counts of one hour: hourly hash fields, and reason codes (for the day's hash). */
interface Tally {
  hour: Map<string, number>;
  reasons: Map<string, number>;
}

/**
 * Check counts not yet written, all of one UTC hour (`hour`, in hours since the epoch), per client. The
 * Redis keys are made once per client at the flush, not per check.
 */
class PendingCounts {
  readonly clients = new Map<string, Tally>();
  checks = 0;

  constructor(readonly hour: number) {}

  add(record: CheckRecord): void {
    let tally = this.clients.get(record.clientId);
    if (!tally) this.clients.set(record.clientId, (tally = { hour: new Map(), reasons: new Map() }));
    const fields = FIELDS[record.kind];
    increment(tally.hour, fields.verdict[record.verdict]);
    increment(tally.hour, fields.latency[latencyBucket(record.durationMs)]!);
    const { reasons } = record;
    // Each code once per check, however often the check gives it.
    for (let i = 0; i < reasons.length; i++)
      if (reasons.indexOf(reasons[i]!) === i) increment(tally.reasons, reasons[i]!);
    this.checks += 1;
  }
}

function increment(counts: Map<string, number>, field: string): void {
  counts.set(field, (counts.get(field) ?? 0) + 1);
}
