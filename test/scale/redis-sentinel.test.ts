import { connectRedis, createLogger, type RedisConnection } from '@spam-check/service-kit';
import { startSentinelGroup, type SentinelGroup } from '@spam-check/test-support';
import { Redis } from 'ioredis';

const logger = createLogger({ service: 'scale-test', level: 'silent' });

async function until(what: string, condition: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what}: not reached in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function askSentinel(port: number, ...args: string[]): Promise<unknown> {
  const sentinel = new Redis({ port, host: '127.0.0.1', lazyConnect: true });
  try {
    return await sentinel.call('SENTINEL', ...args);
  } finally {
    sentinel.disconnect();
  }
}

const namedMaster = async (port: number, name: string) =>
  Number(((await askSentinel(port, 'GET-MASTER-ADDR-BY-NAME', name)) as string[])[1]);

const servedBy = async (client: Redis) => Number(((await client.config('GET', 'port')) as string[])[1]);

describe('the connection factory on a Sentinel group', () => {
  let group: SentinelGroup;
  let connection: RedisConnection;
  const sentinelTarget = () => ({
    kind: 'sentinel' as const,
    sentinels: group.sentinelPorts.map((port) => ({ host: '127.0.0.1', port })),
    name: group.masterName,
  });

  beforeAll(async () => {
    group = await startSentinelGroup();
    connection = await connectRedis({ target: sentinelTarget(), name: 'redis', logger });
  }, 120_000);
  afterAll(async () => {
    await connection?.closer.close();
    await group?.stop();
  });

  it('when the sentinels hand the master over while it stays up, the same client moves to the new one', async () => {
    const client = connection.client as Redis;
    await connection.check();
    const before = group.masterPort();
    // NOGOODSLAVE until the sentinel has fresh news of the replica (it asks it every ten seconds).
    await until(
      'a sentinel starts the handover',
      async () => (await askSentinel(group.sentinelPorts[0]!, 'FAILOVER', group.masterName)) === 'OK',
    );
    await until('every sentinel names the new master', async () => {
      const named = await Promise.all(group.sentinelPorts.map((port) => namedMaster(port, group.masterName)));
      return named.every((port) => port !== before);
    });
    // The old master stays up until the sentinels make it a replica of the new one, seconds later; the
    // announcement of the switch moves the client before that.
    await until('a write through the same client reaches the new master', async () => {
      await client.set('scale:sentinel:handed-over', 'written');
      return (await servedBy(client)) === group.masterPort();
    });
    expect(client.status).toBe('ready');
    expect(await client.get('scale:sentinel:handed-over')).toBe('written');
  }, 90_000);

  it('when the master is killed while the first sentinel stalls, the sentinels promote the replica and the same client asks the others and writes to it', async () => {
    const [stalled, live] = group.sentinelPorts as [number, number];
    // A new client: the sentinel it asked first (the stalled one) is the first it asks again.
    const fresh = await connectRedis({ target: sentinelTarget(), name: 'redis', logger });
    const client = fresh.client as Redis;
    try {
      await fresh.check();
      const before = await namedMaster(live, group.masterName);
      expect(await servedBy(client)).toBe(before);
      await client.set('scale:sentinel:before', 'kept');
      // Replication is asynchronous: WAIT makes the write reach the replica before the master is lost.
      await until('the replica acknowledges the write', async () => (await client.wait(1, 200)) === 1);

      group.pause(stalled, true);
      group.kill(before);
      await until(
        'the sentinels name a new master',
        async () => (await namedMaster(live, group.masterName)) !== before,
      );
      await until('a write through the same client succeeds', async () => {
        await client.set('scale:sentinel:after', 'written');
        return true;
      });

      const after = await namedMaster(live, group.masterName);
      expect(after).not.toBe(before);
      expect(await servedBy(client)).toBe(after);
      expect(await client.get('scale:sentinel:before')).toBe('kept');
      expect(await client.get('scale:sentinel:after')).toBe('written');
      expect(client.status).toBe('ready');
    } finally {
      group.pause(stalled, false);
      await fresh.closer.close();
    }
  }, 90_000);

  it('when a connection is closed, it leaves no connection open to any sentinel or to Redis', async () => {
    const master = await namedMaster(group.sentinelPorts[1]!, group.masterName);
    const observers = [...group.sentinelPorts, master].map(
      (port) => new Redis({ port, host: '127.0.0.1', lazyConnect: true }),
    );
    const connections = async () => {
      const lists = await Promise.all(
        observers.map((observer) => observer.client('LIST') as Promise<string>),
      );
      // The sentinels' own links (named sentinel-…) come and go with the group, not with our client.
      return lists
        .join('\n')
        .split('\n')
        .filter((line) => line !== '' && !line.includes(' name=sentinel-')).length;
    };
    try {
      const before = await connections();
      const closing = await connectRedis({ target: sentinelTarget(), name: 'redis', logger });
      await closing.check();
      expect(await connections()).toBeGreaterThan(before);
      await closing.closer.close();
      await until(
        'every connection of the closed client is gone',
        async () => (await connections()) === before,
        10_000,
      );
      expect(await connections()).toBe(before);
    } finally {
      observers.forEach((observer) => observer.disconnect());
    }
  }, 30_000);
});
