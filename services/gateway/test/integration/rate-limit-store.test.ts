import { randomUUID } from 'node:crypto';
import { freePort } from '@spam-check/process-kit';
import { redisUrl, removeKeysUnder } from '@spam-check/test-support';
import { Redis } from 'ioredis';
import { memoryRateLimitStore, redisRateLimitStore } from '../../src/data-access/rate-limit-store';

/** A client of a Redis that is not there (nothing listens on its port), that never retries. */
async function unreachableRedis(): Promise<Redis> {
  const down = new Redis(`redis://127.0.0.1:${await freePort()}`, {
    maxRetriesPerRequest: 0,
    lazyConnect: true,
    retryStrategy: () => null,
  });
  down.on('error', () => undefined);
  return down;
}

describe('the Redis rate limit store, reserving batches of a window', () => {
  let redis: Redis;
  const prefix = `test:gateway:${randomUUID()}:`;
  const counter = (clientId: string) => redis.get(`${prefix}ratelimit:${clientId}`).then(Number);

  beforeAll(() => {
    redis = new Redis(redisUrl());
  });
  afterAll(async () => {
    await removeKeysUnder(redis, prefix);
    await redis.quit();
  });

  it('when one client keeps sending, its positions run 1, 2, 3, ... while Redis is asked in growing batches', async () => {
    const store = redisRateLimitStore(redis, prefix, 1000);
    const positions: number[] = [];
    const windowStart = Date.now();
    for (let i = 0; i < 16; i += 1) positions.push((await store.hit('steady', 60_000)).count);
    expect(positions).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    // Batches of 1, 2, 4, 8, then 10 (1 % of the limit): the fifth reservation took positions 16 to 25.
    expect(await counter('steady')).toBe(25);
    for (let i = 17; i <= 25; i += 1) expect((await store.hit('steady', 60_000)).count).toBe(i);
    expect(await counter('steady')).toBe(25);
    expect((await store.hit('steady', 60_000)).count).toBe(26);
    expect(await counter('steady')).toBe(35);
    // The window runs from the first request (a fixed window), however slow the machine made the test.
    const elapsed = Date.now() - windowStart;
    expect(await redis.pttl(`${prefix}ratelimit:steady`)).toBeGreaterThanOrEqual(60_000 - elapsed);
  });

  it('when a limit is below 200, every request is counted in Redis as it comes', async () => {
    const store = redisRateLimitStore(redis, prefix, 150);
    for (let i = 1; i <= 5; i += 1) {
      expect((await store.hit('small', 60_000)).count).toBe(i);
      expect(await counter('small')).toBe(i);
    }
  });

  it('when many requests of one client arrive at once, each gets its own position and one reservation serves them', async () => {
    const store = redisRateLimitStore(redis, prefix, 10_000);
    await store.hit('burst', 60_000);
    const positions = (await Promise.all(Array.from({ length: 60 }, () => store.hit('burst', 60_000)))).map(
      (window) => window.count,
    );
    expect(new Set(positions).size).toBe(60);
    expect(Math.min(...positions)).toBe(2);
    expect(Math.max(...positions)).toBe(61);
    // 61 served, and at most one batch (100) reserved ahead.
    expect(await counter('burst')).toBeGreaterThanOrEqual(61);
    expect(await counter('burst')).toBeLessThanOrEqual(61 + 100);
  });

  it('when replicas share a limit, together they never pass it, and lose at most a batch each', async () => {
    const limit = 400; // batches of at most 4
    const replicas = [redisRateLimitStore(redis, prefix, limit), redisRateLimitStore(redis, prefix, limit)];
    const served: number[] = [];
    let refused = 0;
    for (let i = 0; i < 500; i += 1) {
      const window = await replicas[i % 2]!.hit('shared', 60_000);
      if (window.count <= limit) served.push(window.count);
      else refused += 1;
    }
    expect(new Set(served).size).toBe(served.length);
    expect(served.length).toBeLessThanOrEqual(limit);
    expect(served.length).toBeGreaterThanOrEqual(limit - 2 * 4);
    expect(refused).toBe(500 - served.length);
    expect(await counter('shared')).toBe(limit);
  });

  it('when the window is spent, refusals carry the time left and new windows start over', async () => {
    const store = redisRateLimitStore(redis, prefix, 200);
    // Hits until the first refusal: a window that ends before its 200 hits (a loaded machine) starts over.
    let refused = await store.hit('short', 1000);
    while (refused.count <= 200) refused = await store.hit('short', 1000);
    expect(refused.count).toBe(201);
    expect(refused.resetMs).toBeGreaterThan(0);
    expect(refused.resetMs).toBeLessThanOrEqual(1000);
    await new Promise((resolve) => setTimeout(resolve, refused.resetMs + 50));
    expect((await store.hit('short', 1000)).count).toBe(1);
  });

  it('when Redis is unreachable, every waiting request fails with SERVICE_UNAVAILABLE, and the next one asks again', async () => {
    const down = await unreachableRedis();
    const store = redisRateLimitStore(down, prefix, 10_000);
    const outcomes = await Promise.allSettled([store.hit('down', 60_000), store.hit('down', 60_000)]);
    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected');
      expect((outcome as PromiseRejectedResult).reason).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    }
    await expect(store.hit('down', 60_000)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    down.disconnect();
  });

  it('when a batch takes more than the window has left, it gets the rest, and then nothing, shared with single hits', async () => {
    const store = redisRateLimitStore(redis, prefix, 1000);
    for (let i = 0; i < 10; i += 1) await store.hit('batch', 60_000);
    // Reservations of 1, 2, 4 and 8: positions 11 to 15 are this instance's, not yet used.
    expect(await counter('batch')).toBe(15);
    expect(await store.take('batch', 60_000, 900)).toMatchObject({ granted: 900, count: 915 });
    expect(await store.take('batch', 60_000, 900)).toMatchObject({ granted: 85, count: 1000 });
    expect(await store.take('batch', 60_000, 1)).toMatchObject({ granted: 0, count: 1000 });
    expect(await counter('batch')).toBe(1000);
    const positions = [];
    for (let i = 0; i < 6; i += 1) positions.push((await store.hit('batch', 60_000)).count);
    expect(positions).toEqual([11, 12, 13, 14, 15, 1001]);
    expect(await store.take('batch', 60_000, 5)).toMatchObject({ granted: 0 });
  });

  it('when Redis is unreachable, a batch fails with SERVICE_UNAVAILABLE', async () => {
    const down = await unreachableRedis();
    const store = redisRateLimitStore(down, prefix, 10_000);
    await expect(store.take('down', 60_000, 10)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    down.disconnect();
  });
});

describe('the in-memory rate limit store', () => {
  it('when a batch takes more than the window has left, it gets the rest; a new window starts over', async () => {
    let now = 0;
    const store = memoryRateLimitStore(100, () => now);
    await store.hit('client', 1000);
    expect(await store.take('client', 1000, 60)).toEqual({ count: 61, granted: 60, resetMs: 1000 });
    expect(await store.take('client', 1000, 60)).toEqual({ count: 100, granted: 39, resetMs: 1000 });
    expect(await store.take('client', 1000, 1)).toMatchObject({ granted: 0 });
    expect((await store.hit('client', 1000)).count).toBe(101);
    now = 1000;
    expect(await store.take('client', 1000, 5)).toEqual({ count: 5, granted: 5, resetMs: 1000 });
  });
});
