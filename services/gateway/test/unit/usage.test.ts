import {
  LATENCY_BOUNDS_MS,
  intervalStarts,
  latencyBucket,
  latencyField,
  latencyPercentile,
  topReasons,
} from '../../src/domain/usage';

describe('usage arithmetic', () => {
  it('when latencies fall in buckets, p50 and p99 are the upper bounds of the buckets they fall in', () => {
    const counts: Record<string, number> = {};
    const add = (ms: number, times: number) => {
      const field = latencyField('mail', latencyBucket(ms));
      counts[field] = (counts[field] ?? 0) + times;
    };
    add(3, 90);
    add(40, 9);
    add(700, 1);
    expect(latencyPercentile(counts, 'mail', 50)).toBe(5);
    expect(latencyPercentile(counts, 'mail', 99)).toBe(50);
    expect(latencyPercentile(counts, 'mail', 100)).toBe(1000);
    expect(latencyPercentile(counts, 'text', 50)).toBeNull();
    add(60_000, 1000);
    expect(latencyPercentile(counts, 'mail', 99)).toBe(LATENCY_BOUNDS_MS.at(-1));
  });

  it('when a range is asked, interval starts are aligned to UTC hours or days and include the last one', () => {
    const from = new Date('2026-11-20T10:30:00Z');
    const to = new Date('2026-11-22T01:00:00Z');
    expect(intervalStarts(from, to, 'day').map((d) => d.toISOString())).toEqual([
      '2026-11-20T00:00:00.000Z',
      '2026-11-21T00:00:00.000Z',
      '2026-11-22T00:00:00.000Z',
    ]);
    expect(intervalStarts(from, new Date('2026-11-20T12:00:00Z'), 'hour')).toHaveLength(3);
  });

  it('ranks reason codes by count, then by code', () => {
    expect(topReasons({ 'r:B': 2, 'r:A': 2, 'r:C': 5, 'mail:spam': 9, 'f:spam': 1 }, 2)).toEqual([
      { code: 'C', count: 5 },
      { code: 'A', count: 2 },
    ]);
  });
});
