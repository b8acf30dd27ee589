import { randomUUID } from 'node:crypto';
import { REASON_CODES } from '@spam-check/contracts';
import { Counter, createLogger, createMetrics } from '@spam-check/service-kit';
import { keysUnder, redisUrl, removeKeysUnder } from '@spam-check/test-support';
import { Redis } from 'ioredis';
import { RETENTION_SECONDS, redisUsageStore } from '../../src/data-access/usage-store';
import { CHECK_KINDS, LATENCY_BOUNDS_MS, VERDICTS } from '../../src/domain/usage';

describe('the Redis usage store', () => {
  let redis: Redis;
  const prefix = `test:gateway:${randomUUID()}:`;
  const lost = new Counter({
    name: 'test_usage_lost_total',
    help: 'test',
    labelNames: ['kind'] as const,
    registers: [createMetrics('gateway').registry],
  });
  const logger = createLogger({ service: 'gateway-test', level: 'silent' });

  beforeAll(() => {
    redis = new Redis(redisUrl());
  });
  afterAll(async () => {
    await removeKeysUnder(redis, prefix);
    await redis.quit();
  });

  async function settled(check: () => Promise<boolean>) {
    for (let i = 0; i < 100 && !(await check()); i += 1)
      await new Promise((resolve) => setTimeout(resolve, 20));
  }

  it('when a client uses every kind, verdict, latency bucket and reason, its hour and day stay within their bound', async () => {
    const store = redisUsageStore({ redis, prefix, logger, lost });
    const clientId = 'busy';
    let recorded = 0;
    for (const kind of CHECK_KINDS)
      for (const verdict of VERDICTS)
        for (const ms of [...LATENCY_BOUNDS_MS, 60_000]) {
          store.recordCheck({ clientId, kind, verdict, reasons: REASON_CODES, durationMs: ms });
          recorded += 1;
        }
    const report = (label: 'spam' | 'ham') => ({
      at: new Date().toISOString(),
      id: `f-${label}`,
      check_id: null,
      label,
      applied_to: ['email' as const],
    });
    store.recordFeedback(clientId, report('spam'));
    store.recordFeedback(clientId, report('ham'));
    const now = new Date();
    const from = new Date(now.getTime() - 3600_000);
    await settled(async () => {
      const stats = await store.stats(clientId, from, now, 'hour');
      const total = CHECK_KINDS.flatMap((kind) => VERDICTS.map((v) => stats.totals[kind][v])).reduce(
        (a, b) => a + b,
      );
      return total === recorded && stats.feedback.ham === 1;
    });

    const stats = await store.stats(clientId, from, now, 'hour');
    expect(stats.totals.text).toEqual({ ham: 14, suspicious: 14, spam: 14 });
    expect(stats.feedback).toEqual({ spam: 1, ham: 1 });
    expect(stats.top_reasons).toHaveLength(10);
    expect(stats.top_reasons[0]?.count).toBe(recorded);
    expect(stats.latency_ms.hybrid).toEqual({ p50: 100, p99: 10_000 });

    const keys = await keysUnder(redis, `${prefix}usage:${clientId}:`);
    expect(keys).toHaveLength(2);
    for (const key of keys) {
      expect(await redis.ttl(key)).toBeGreaterThan(RETENTION_SECONDS - 60);
      // docs/admin.md: at most about 1 KiB per hour hash and 1.4 KiB per day hash.
      expect(Number(await redis.memory('USAGE', key))).toBeLessThan(key.includes(':h:') ? 1100 : 1500);
    }
  });

  it('when counts are still summed in memory, flush writes them at once and only once', async () => {
    const store = redisUsageStore({ redis, prefix, logger, lost });
    for (let i = 0; i < 30; i += 1)
      store.recordCheck({
        clientId: 'flushed',
        kind: 'mail',
        verdict: i % 3 ? 'ham' : 'spam',
        reasons: ['EMAIL_DISPOSABLE_DOMAIN'],
        durationMs: 3,
      });
    await store.flush();
    const now = new Date();
    const stats = await store.stats('flushed', new Date(now.getTime() - 3600_000), now, 'hour');
    expect(stats.totals.mail).toEqual({ ham: 20, suspicious: 0, spam: 10 });
    expect(stats.top_reasons).toEqual([{ code: 'EMAIL_DISPOSABLE_DOMAIN', count: 30 }]);
    await store.flush();
    expect(
      (await store.stats('flushed', new Date(now.getTime() - 3600_000), now, 'hour')).totals.mail.ham,
    ).toBe(20);
  });

  it('keeps only the latest 50 feedback reports of a client, newest first, without their content', async () => {
    const store = redisUsageStore({ redis, prefix, logger, lost });
    for (let i = 0; i < 60; i += 1)
      store.recordFeedback('reporter', {
        at: new Date().toISOString(),
        id: `f${i}`,
        check_id: i % 2 ? `c${i}` : null,
        label: i % 3 ? 'ham' : 'spam',
        applied_to: ['text'],
      });
    await settled(async () => (await store.recentFeedback('reporter', 50))[0]?.id === 'f59');
    const recent = await store.recentFeedback('reporter', 50);
    expect(recent).toHaveLength(50);
    expect(recent.at(-1)?.id).toBe('f10');
    expect(recent[0]).toEqual({
      at: expect.any(String),
      id: 'f59',
      check_id: 'c59',
      label: 'ham',
      applied_to: ['text'],
    });
    expect(await store.recentFeedback('reporter', 3)).toHaveLength(3);
    expect(await redis.ttl(`${prefix}feedback-recent:reporter`)).toBeGreaterThan(RETENTION_SECONDS - 60);
  });

  it('keeps only the latest 50 admin actions of a client, newest first', async () => {
    const store = redisUsageStore({ redis, prefix, logger, lost });
    for (let i = 0; i < 60; i += 1)
      await store.recordAdminAction({
        at: new Date().toISOString(),
        actor: { client_id: 'admin', username: 'root' },
        action: 'settings.update',
        client_id: 'audited',
        status: 200,
        request_id: `r${i}`,
      });
    const stats = await store.stats('audited', new Date(Date.now() - 86400_000), new Date(), 'day');
    expect(stats.recent_admin_actions).toHaveLength(50);
    expect(stats.recent_admin_actions[0]?.request_id).toBe('r59');
    expect(stats.recent_admin_actions.at(-1)?.request_id).toBe('r10');
  });
});
