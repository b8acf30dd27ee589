import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createRpcClient, rpcQueueName } from '@spam-check/amqp-rpc';
import { createLogger } from '@spam-check/service-kit';
import { freePort, spawnService, waitForReady } from '@spam-check/process-kit';
import { amqpUrl, redisUrl, removeKeysUnder } from '@spam-check/test-support';
import { connect } from 'amqplib';
import { Redis } from 'ioredis';

describe('the email-detector process (main.ts)', () => {
  const queue = `test.email-detector.main.${randomUUID()}`;
  const prefix = `test:email-detector-main:${randomUUID().slice(0, 8)}:`;

  afterAll(async () => {
    const connection = await connect(amqpUrl());
    const channel = await connection.createChannel();
    await channel.deleteQueue(rpcQueueName(queue, 'quorum'));
    await connection.close();
    const redis = new Redis(redisUrl());
    await removeKeysUnder(redis, prefix).finally(() => redis.quit());
  });

  it('with AMQP_URL, it consumes its RPC queue, reports it in /readyz and drains on SIGTERM', async () => {
    const port = await freePort();
    const service = spawnService(
      'email-detector',
      {
        AMQP_URL: amqpUrl(),
        REDIS_URL: redisUrl(),
        EMAIL_FEEDBACK_PREFIX: prefix,
        EMAIL_RPC_QUEUE: queue,
        EMAIL_DNS_CHECK: 'off',
        LOG_LEVEL: 'info',
      },
      port,
    );
    const exited = once(service.child, 'exit');
    await waitForReady(service);

    const readyz = (await (await fetch(`${service.url}/readyz`)).json()) as {
      checks: Record<string, string>;
    };
    // Its feedback store in Redis, under this test's own prefix.
    expect(readyz.checks).toEqual({ amqp: 'up', redis: 'up' });
    const client = createRpcClient({
      url: amqpUrl(),
      logger: createLogger({ service: 'test', level: 'silent' }),
    });
    try {
      const result = await client.call(queue, { email: 'ham@spam-check.test' }, { timeoutMs: 5000 });
      expect(result).toMatchObject({ verdict: 'ham', checks: { dns: { status: 'skipped' } } });
    } finally {
      await client.close();
    }

    service.child.kill('SIGTERM');
    const [code] = await exited;
    expect(code).toBe(0);
    expect(service.output()).toContain('shutdown complete');
    expect(service.output()).toContain('EMAIL_DNS_CHECK is off');
  });
});
