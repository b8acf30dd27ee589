import { randomUUID } from 'node:crypto';
import { redisUrl, removeKeysUnder } from '@spam-check/test-support';
import { Redis } from 'ioredis';
import {
  memoryCheckMemory,
  memoryClientMap,
  redisCheckMemory,
  redisClientMap,
  type CheckMemory,
  type ClientMap,
} from '@spam-check/client-state';

const run = randomUUID().slice(0, 8);
let redis: Redis;
beforeAll(() => {
  redis = new Redis(redisUrl());
});
afterAll(async () => {
  await removeKeysUnder(redis, `feedback-store-test-${run}:`);
  await redis.quit();
});

describe('check memory', () => {
  const prefix = `feedback-store-test-${run}:check-memory:`;

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

describe('client maps with a retention, and erasure', () => {
  const prefix = `feedback-store-test-${run}:client-map:`;

  /** A new client map of each kind, of `cap` entries kept for `retention` s. */
  const bothMaps = (cap: number, retention: number): [string, () => ClientMap][] => [
    ['redis', () => redisClientMap(redis, `${prefix}${randomUUID()}:`, cap, retention)],
    ['memory', () => memoryClientMap(cap, retention)],
  ];

  it('when an entry is older than the retention (memory), it is no longer read', async () => {
    // The map's own clock: what a test of retention reads must not depend on how late a timer fires.
    let now = Date.now();
    const map = memoryClientMap(10, 2, () => now);
    await map.update('client', [['old', 'spam']]);
    now += 1200;
    await map.update('client', [['new', 'ham']]);
    expect(await map.get('client', 'old')).toBe('spam');
    expect(await map.getMany('client', ['old', 'new', 'none'])).toEqual(['spam', 'ham', undefined]);
    now += 1200;
    expect(await map.get('client', 'old')).toBeUndefined();
    expect(await map.get('client', 'new')).toBe('ham');
    expect(await map.getMany('client', ['old', 'new'])).toEqual([undefined, 'ham']);
    expect(await map.all('client')).toEqual([['new', 'ham']]);
    now += 1200;
    expect(await map.all('client')).toEqual([]);
  });

  it('when an entry is older than the retention (redis), it is no longer read, and the next write deletes it', async () => {
    const mapPrefix = `${prefix}${randomUUID()}:`;
    const [entries, order] = [`${mapPrefix}{client}:entries`, `${mapPrefix}{client}:order`];
    const map = redisClientMap(redis, mapPrefix, 10, 60);
    await map.update('client', [['new', 'ham']]);
    // An entry written 61 s ago, as the map stores it: no wait, so no dependence on the machine's load.
    await redis
      .multi()
      .hset(entries, 'old', 'spam')
      .zadd(order, Date.now() - 61_000, 'old')
      .exec();
    expect(await map.get('client', 'old')).toBeUndefined();
    expect(await map.get('client', 'new')).toBe('ham');
    expect(await map.getMany('client', ['old', 'new', 'none'])).toEqual([undefined, 'ham', undefined]);
    expect(await map.all('client')).toEqual([['new', 'ham']]);
    await map.update('client', [['newer', 'spam']]);
    expect(await redis.hexists(entries, 'old')).toBe(0);
    expect(await redis.zscore(order, 'old')).toBeNull();
    expect(await map.all('client')).toEqual([
      ['new', 'ham'],
      ['newer', 'spam'],
    ]);
  });

  it.each(bothMaps(3, 60))(
    'when a client writes beyond its cap, the oldest written go first, in the order of one write, and are answered (%s)',
    async (_name, create) => {
      const map = create();
      // Against the alphabet: ties in write time would go in key order.
      expect(
        await map.update('client', [
          ['y', '1'],
          ['x', '2'],
        ]),
      ).toEqual([]);
      expect(
        await map.update('client', [
          ['c', '3'],
          ['d', '4'],
        ]),
      ).toEqual([['y', '1']]);
      expect(await map.all('client')).toEqual([
        ['x', '2'],
        ['c', '3'],
        ['d', '4'],
      ]);
      expect(await map.update('client', [['e', '5']], ['c'])).toEqual([]);
      expect(await map.update('client', [['f', '6']])).toEqual([['x', '2']]);
      expect(await map.all('client')).toEqual([
        ['d', '4'],
        ['e', '5'],
        ['f', '6'],
      ]);
      expect(await map.getMany('client', ['y', 'x', 'c', 'e'])).toEqual([
        undefined,
        undefined,
        undefined,
        '5',
      ]);
    },
  );

  it('erasing a client also deletes the version counter that earlier releases kept beside its map', async () => {
    const mapPrefix = `${prefix}legacy:`;
    const map = redisClientMap(redis, mapPrefix, 10, 60);
    await map.update('client', [['key', 'value']]);
    await redis.set(`${mapPrefix}{client}:version`, '7');
    expect(await map.eraseClient('client')).toBe(1);
    const parts = ['entries', 'order', 'version'].map((part) => `${mapPrefix}{client}:${part}`);
    expect(await redis.exists(...parts)).toBe(0);
  });

  it('when a client stops writing, its keys expire in Redis after the retention', async () => {
    const mapPrefix = `${prefix}ttl:`;
    const map = redisClientMap(redis, mapPrefix, 10, 60);
    await map.update('client', [['key', 'value']]);
    for (const part of ['entries', 'order']) {
      const ttl = await redis.ttl(`${mapPrefix}{client}:${part}`);
      expect(ttl).toBeGreaterThan(55);
      expect(ttl).toBeLessThanOrEqual(60);
    }
  });

  it.each(bothMaps(10, 60))(
    'erases a client, or one key of every client, answering how many entries went (%s)',
    async (_name, create) => {
      const map = create();
      await map.update('a', [
        ['shared', 'spam'],
        ['own', 'ham'],
      ]);
      await map.update('b', [['shared', 'ham']]);
      expect(await map.eraseKey('shared')).toBe(2);
      expect(await map.get('b', 'shared')).toBeUndefined();
      expect(await map.eraseKey('shared')).toBe(0);
      expect(await map.eraseClient('a')).toBe(1);
      expect(await map.all('a')).toEqual([]);
      expect(await map.clients()).not.toContain('a');
    },
  );

  it.each([
    ['redis', () => redisCheckMemory(redis, `${prefix}${randomUUID()}:`, 60)],
    ['memory', () => memoryCheckMemory(60)],
  ] as [string, () => CheckMemory][])(
    'erases check records by client or by value, and rewrites values (%s)',
    async (_name, create) => {
      const memory = create();
      const [one, two, three] = [randomUUID(), randomUUID(), randomUUID()];
      await memory.remember('a', one, 'x@example.org');
      await memory.remember('a', two, 'other');
      await memory.remember('b', three, 'x@example.org');
      expect(await memory.rewriteValues((value) => value.toUpperCase())).toBe(3);
      expect(await memory.recall('a', one)).toBe('X@EXAMPLE.ORG');
      expect(await memory.eraseValue('X@EXAMPLE.ORG')).toBe(2);
      expect(await memory.recall('b', three)).toBeUndefined();
      expect(await memory.recall('a', two)).toBe('OTHER');
      expect(await memory.eraseClient('a')).toBe(1);
      expect(await memory.recall('a', two)).toBeUndefined();
    },
  );

  it('keeps its check records apart from maps nested under the same prefix', async () => {
    const shared = `${prefix}nested-${randomUUID().slice(0, 8)}:`;
    const memory = redisCheckMemory(redis, shared, 60);
    const map = redisClientMap(redis, `${shared}reports:`, 10, 60);
    await map.update('check', [['key', 'value']]);
    await memory.remember('reports', randomUUID(), 'value');
    expect(await memory.eraseClient('reports')).toBe(1);
    expect(await memory.eraseValue('1')).toBe(0);
    expect(await map.get('check', 'key')).toBe('value');
  });
});
