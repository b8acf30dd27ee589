import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { freePort } from '@spam-check/process-kit';
import { redisUrl, TcpProxy } from '@spam-check/test-support';
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
      expect(subscriber.client).toBeInstanceOf(Redis);
      expect((subscriber.client as Redis).options.commandTimeout).toBeUndefined();
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
