import type { Verdict } from '@spam-check/contracts';

/**
 * What is counted per client (docs/design.md, Administration, stats), as Redis hash fields, and how counts
 * become the stats answer. Hourly hashes hold checks per kind and verdict and a latency histogram per kind;
 * daily hashes hold reason codes and feedback. Time is UTC.
 */
export const CHECK_KINDS = ['mail', 'text', 'hybrid'] as const;
export type CheckKind = (typeof CHECK_KINDS)[number];
export const VERDICTS: readonly Verdict[] = ['ham', 'suspicious', 'spam'];

/** Upper bounds (ms) of the latency buckets; a check slower than the last falls in an overflow bucket. */
export const LATENCY_BOUNDS_MS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000] as const;

export function latencyBucket(durationMs: number): number {
  let index = 0;
  while (index < LATENCY_BOUNDS_MS.length && durationMs > LATENCY_BOUNDS_MS[index]!) index++;
  return index;
}

export const verdictField = (kind: CheckKind, verdict: Verdict) => `${kind}:${verdict}`;
export const latencyField = (kind: CheckKind, bucket: number) => `l:${kind}:${bucket}`;
export const reasonField = (code: string) => `r:${code}`;
export const feedbackField = (label: 'spam' | 'ham') => `f:${label}`;

const pad = (n: number) => String(n).padStart(2, '0');
export const hourKey = (at: Date) =>
  `${at.getUTCFullYear()}${pad(at.getUTCMonth() + 1)}${pad(at.getUTCDate())}${pad(at.getUTCHours())}`;
export const dayKey = (at: Date) => hourKey(at).slice(0, 8);

export const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

/** The interval starts from `from` (rounded down) to `to`. */
export function intervalStarts(from: Date, to: Date, interval: 'hour' | 'day'): Date[] {
  const step = interval === 'hour' ? HOUR_MS : DAY_MS;
  const starts: Date[] = [];
  for (let t = Math.floor(from.getTime() / step) * step; t <= to.getTime(); t += step)
    starts.push(new Date(t));
  return starts;
}

export function hoursOf(start: Date, interval: 'hour' | 'day'): Date[] {
  if (interval === 'hour') return [start];
  return Array.from({ length: 24 }, (_, i) => new Date(start.getTime() + i * HOUR_MS));
}

export type Counts = Record<string, number>;

export function addCounts(into: Counts, from: Counts): Counts {
  for (const [field, count] of Object.entries(from)) into[field] = (into[field] ?? 0) + count;
  return into;
}

export function verdictCounts(counts: Counts, kind: CheckKind): Record<Verdict, number> {
  return {
    ham: counts[verdictField(kind, 'ham')] ?? 0,
    suspicious: counts[verdictField(kind, 'suspicious')] ?? 0,
    spam: counts[verdictField(kind, 'spam')] ?? 0,
  };
}

/**
 * A percentile of a kind's latency histogram, as the upper bound of the bucket it falls in (an over-estimate
 * by at most that bucket's width); the overflow bucket reports the last bound. null without checks.
 */
export function latencyPercentile(counts: Counts, kind: CheckKind, percentile: number): number | null {
  const buckets = Array.from(
    { length: LATENCY_BOUNDS_MS.length + 1 },
    (_, i) => counts[latencyField(kind, i)] ?? 0,
  );
  const total = buckets.reduce((sum, n) => sum + n, 0);
  if (total === 0) return null;
  const rank = Math.ceil((percentile / 100) * total);
  let seen = 0;
  for (const [index, count] of buckets.entries()) {
    seen += count;
    if (seen >= rank) return LATENCY_BOUNDS_MS[Math.min(index, LATENCY_BOUNDS_MS.length - 1)]!;
  }
  return LATENCY_BOUNDS_MS[LATENCY_BOUNDS_MS.length - 1]!;
}

export function topReasons(counts: Counts, limit: number): { code: string; count: number }[] {
  return Object.entries(counts)
    .filter(([field]) => field.startsWith('r:'))
    .map(([field, count]) => ({ code: field.slice(2), count }))
    .sort((a, b) => b.count - a.count || a.code.localeCompare(b.code))
    .slice(0, limit);
}
