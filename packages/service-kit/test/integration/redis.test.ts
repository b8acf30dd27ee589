import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { freePort } from '@spam-check/process-kit';
import { redisUrl, startRedisServer, TcpProxy } from '@spam-check/test-support';
import { connectRedis, type RedisLogger } from '../../src/redis';

function recordingLogger() {
  const lines: { level: 'warn' | 'info'; message: string }[] = [];
  const logger: RedisLogger = {
    warn: (_details, message) => lines.push({ level: 'warn', message }),
    info: (_details, message) => lines.push({ level: 'info', message }),
  };
  return { logger, lines };
}

async function until(condition: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A long synchronous step (a loaded machine, a GC pause): no timer or socket is served meanwhile. */
function blockEventLoop(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end);
}

describe('connectRedis', () => {
  it('when Redis is up, it resolves connected, passes its check and closes with QUIT', async () => {
    const { logger, lines } = recordingLogger();
    const redis = await connectRedis({ target: { kind: 'single', url: redisUrl() }, name: 'redis', logger });
    expect(redis.client.status).toBe('ready');
    await expect(redis.check()).resolves.toBeUndefined();
    const key = `kit-redis-test:${randomUUID()}`;
    await redis.client.set(key, 'value', 'EX', 10);
    expect(await redis.client.get(key)).toBe('value');
    await redis.client.del(key);
    await redis.closer.close();
    await until(async () => redis.client.status === 'end');
    expect(redis.closer.name).toBe('redis');
    expect(lines).toEqual([]);
  });

  it('when Redis is unreachable, it still resolves, and commands fail at once instead of waiting', async () => {
    const { logger, lines } = recordingLogger();
    const redis = await connectRedis({
      target: { kind: 'single', url: `redis://127.0.0.1:${await freePort()}` },
      name: 'down',
      logger,
    });
    try {
      // Refused without being queued: not a command timeout, whatever the machine's load.
      const notQueued = /enableOfflineQueue/;
      await expect(redis.check()).rejects.toThrow(notQueued);
      await expect(redis.client.get('any')).rejects.toThrow(notQueued);
      expect(lines.filter((line) => line.level === 'warn')).toHaveLength(1);
    } finally {
      await redis.closer.close();
    }
  });

  it('when the connection is lost for a while, it logs the outage once, fails fast meanwhile, and recovers', async () => {
    const proxy = await TcpProxy.start(redisUrl(), 6379);
    const { logger, lines } = recordingLogger();
    const redis = await connectRedis({ target: { kind: 'single', url: proxy.url }, name: 'redis', logger });
    try {
      await redis.check();
      proxy.refuse(true);
      proxy.drop();
      // Several reconnection attempts fail meanwhile (every 100 ms, growing).
      await new Promise((resolve) => setTimeout(resolve, 700));
      await expect(redis.client.get('any')).rejects.toThrow(/enableOfflineQueue/);
      expect(lines).toEqual([{ level: 'warn', message: 'redis connection lost; reconnecting' }]);

      proxy.refuse(false);
      await until(() =>
        redis.check().then(
          () => true,
          () => false,
        ),
      );
      expect(lines).toEqual([
        { level: 'warn', message: 'redis connection lost; reconnecting' },
        { level: 'info', message: 'redis connection restored' },
      ]);
    } finally {
      await redis.closer.close();
      await proxy.close();
    }
  });

  it('when the event loop stalls past the timeout after a command left, the answer waiting in the socket counts', async () => {
    const { logger } = recordingLogger();
    const redis = await connectRedis({
      target: { kind: 'single', url: redisUrl() },
      name: 'redis',
      logger,
      timeoutMs: 100,
    });
    const key = `kit-redis-test:${randomUUID()}`;
    try {
      await redis.client.set(key, 'value', 'EX', 10);
      const answer = redis.client.get(key);
      // The command leaves in this turn's auto-pipeline (an immediate queued before this one).
      await new Promise((resolve) => setImmediate(resolve));
      blockEventLoop(400);
      await expect(answer).resolves.toBe('value');
    } finally {
      await redis.client.del(key);
      await redis.closer.close();
    }
  });

  it('when Redis hangs (a stopped process), a command still fails with a timeout', async () => {
    const port = await freePort();
    const server = await startRedisServer(port);
    const { logger } = recordingLogger();
    const redis = await connectRedis({
      target: { kind: 'single', url: `redis://127.0.0.1:${port}` },
      name: 'redis',
      logger,
      timeoutMs: 200,
    });
    try {
      await redis.check();
      server.kill('SIGSTOP');
      await expect(redis.client.get('any')).rejects.toThrow(/timed out/);
      await expect(redis.check()).rejects.toThrow(/timed out/);
    } finally {
      server.kill('SIGCONT');
      await redis.closer.close();
      server.kill();
    }
  });

  it('when it is a subscriber connection, it has no command timeout and receives messages', async () => {
    const { logger } = recordingLogger();
    const subscriber = await connectRedis({
      target: { kind: 'single', url: redisUrl() },
      name: 'sub',
      logger,
      subscriber: true,
    });
    const publisher = await connectRedis({
      target: { kind: 'single', url: redisUrl() },
      name: 'pub',
      logger,
    });
    try {
      // ioredis itself, not the classes that bound each command.
      expect(Object.getPrototypeOf(subscriber.client)).toBe(Redis.prototype);
      const channel = `kit-redis-test:${randomUUID()}`;
      const received = new Promise<string>((resolve) =>
        subscriber.client.on('message', (_channel: string, message: string) => resolve(message)),
      );
      await subscriber.client.subscribe(channel);
      await publisher.client.publish(channel, 'hello');
      expect(await received).toBe('hello');
    } finally {
      await subscriber.closer.close();
      await publisher.closer.close();
    }
  });
});
