import { randomUUID } from 'node:crypto';
import { redisUrl, removeKeysUnder } from '@spam-check/test-support';
import { Redis } from 'ioredis';
import { memoryCheckMemory, redisCheckMemory, type CheckMemory } from '../src/feedback-store';

describe('check memory', () => {
  let redis: Redis;
  const prefix = `check-memory-test-${randomUUID().slice(0, 8)}:`;
  beforeAll(() => {
    redis = new Redis(redisUrl());
  });
  afterAll(async () => {
    await removeKeysUnder(redis, prefix);
    await redis.quit();
  });

  it.each([
    ['redis', () => redisCheckMemory(redis, prefix, 60)],
    ['memory', () => memoryCheckMemory(60)],
  ] as [string, () => CheckMemory][])(
    'when a check id is crafted to reach into another client’s keys (%s), it finds nothing',
    async (_name, create) => {
      const memory = create();
      await memory.remember('tenant:check:victim', 'record-1', 'their data');
      expect(await memory.recall('tenant:check:victim', 'record-1')).toBe('their data');
      expect(await memory.recall('tenant', 'victim:check:record-1')).toBeUndefined();
      expect(await memory.recall('tenant', '')).toBeUndefined();
    },
  );

  it('when more than 100,000 checks are remembered in memory, the oldest go first and the newest stay', async () => {
    const memory = memoryCheckMemory(60);
    for (let i = 0; i <= 100_000; i++) await memory.remember('client', `id-${i}`, `value-${i}`);
    expect(await memory.recall('client', 'id-0')).toBeUndefined();
    expect(await memory.recall('client', 'id-999')).toBeUndefined();
    expect(await memory.recall('client', 'id-1001')).toBe('value-1001');
    expect(await memory.recall('client', 'id-100000')).toBe('value-100000');
  });

  it('when the retention is 0, it keeps nothing', async () => {
    for (const memory of [redisCheckMemory(redis, prefix, 0), memoryCheckMemory(0)]) {
      await memory.remember('client', 'id-0', 'value');
      expect(await memory.recall('client', 'id-0')).toBeUndefined();
    }
  });
});
