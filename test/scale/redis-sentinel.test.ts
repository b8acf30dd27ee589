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

describe('the connection factory on a Sentinel group', () => {
  let group: SentinelGroup;
  let connection: RedisConnection;

  beforeAll(async () => {
    group = await startSentinelGroup();
    connection = await connectRedis({
      target: {
        kind: 'sentinel',
        sentinels: group.sentinelPorts.map((port) => ({ host: '127.0.0.1', port })),
        name: group.masterName,
      },
      name: 'redis',
      logger,
    });
  }, 120_000);
  afterAll(async () => {
    await connection?.closer.close();
    await group?.stop();
  });

  it('when the master is killed, the sentinels promote the replica and the same client writes to it', async () => {
    const client = connection.client as Redis;
    await connection.check();
    const before = group.masterPort();
    const servedBy = async () => Number(((await client.config('GET', 'port')) as string[])[1]);
    expect(await servedBy()).toBe(before);
    await client.set('scale:sentinel:before', 'kept');
    // Replication is asynchronous: WAIT makes the write reach the replica before the master is lost.
    await until('the replica acknowledges the write', async () => (await client.wait(1, 200)) === 1);

    group.kill(before);
    await until('the sentinels name a new master', async () => group.masterPort() !== before);
    await until('a write through the same client succeeds', async () => {
      await client.set('scale:sentinel:after', 'written');
      return true;
    });

    expect(group.masterPort()).not.toBe(before);
    expect(await servedBy()).toBe(group.masterPort());
    expect(await client.get('scale:sentinel:before')).toBe('kept');
    expect(await client.get('scale:sentinel:after')).toBe('written');
    await connection.check();
  }, 90_000);

  it('when a connection is closed, it leaves no connection open to any sentinel (the failover watch included)', async () => {
    const target = {
      kind: 'sentinel' as const,
      sentinels: group.sentinelPorts.map((port) => ({ host: '127.0.0.1', port })),
      name: group.masterName,
    };
    const closing = await connectRedis({ target, name: 'redis', logger });
    // The failover watch subscribes on every sentinel; the observer counts those connections by their channel.
    const observers = group.sentinelPorts.map(
      (port) => new Redis({ port, host: '127.0.0.1', lazyConnect: true }),
    );
    const subscribers = async () => {
      const lists = await Promise.all(
        observers.map((observer) => observer.client('LIST') as Promise<string>),
      );
      return lists
        .join('\n')
        .split('\n')
        .filter((line) => / sub=[1-9]/.test(line)).length;
    };
    try {
      const watching = await subscribers();
      expect(watching).toBeGreaterThanOrEqual(1);
      await closing.closer.close();
      await until(
        'no subscriber left on the sentinels but the other connection’s',
        async () => (await subscribers()) < watching,
        10_000,
      );
      expect(await subscribers()).toBe(watching - group.sentinelPorts.length);
    } finally {
      observers.forEach((observer) => observer.disconnect());
    }
  }, 30_000);
});
