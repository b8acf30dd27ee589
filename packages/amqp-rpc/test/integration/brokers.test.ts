import { freePort } from '@spam-check/process-kit';
import { amqpUrl } from '@spam-check/test-support';
import pino from 'pino';
import { createRpcServer, RpcUnavailableError, rpcQueueName } from '../../src';
import { brokerFaultSuite, capturingLogger, onBroker, uniqueQueue } from './support';

/** A broker URL of the test broker's credentials on a port where nothing listens. */
async function deadBroker(): Promise<string> {
  const url = new URL(amqpUrl());
  url.port = String(await freePort());
  return url.toString();
}

describe('AMQP RPC with several brokers and queue types', () => {
  const broker = brokerFaultSuite();
  const { client, server } = broker;

  it('when the first broker of the list is down, client and server connect to the next and calls succeed', async () => {
    const queue = uniqueQueue('list');
    const dead = await deadBroker();
    const rpcServer = server([dead, amqpUrl()], queue, async (payload) => payload);
    const rpcClient = client([dead, amqpUrl()]);
    await Promise.all([rpcServer.ready(), rpcClient.ready()]);

    await expect(rpcClient.call(queue, 'via the second', { timeoutMs: 5000 })).resolves.toBe(
      'via the second',
    );
  });

  it('when the connection to one broker drops, the reconnect goes to the next broker of the list', async () => {
    const queue = uniqueQueue('list-drop');
    const rpcServer = server(amqpUrl(), queue, async (payload) => payload);
    const rpcClient = client([broker.proxy.url, amqpUrl()]);
    await Promise.all([rpcServer.ready(), rpcClient.ready()]);
    expect(broker.proxy.connections).toBe(1);
    // The proxy keeps accepting: only the turn taken makes the client go around it.
    broker.proxy.drop();

    // A call made as the connection drops fails fast (RpcUnavailableError); the next ones go through.
    let answer: unknown;
    for (let tries = 0; tries < 50 && answer === undefined; tries += 1)
      answer = await rpcClient.call(queue, 'after', { timeoutMs: 5000 }).catch(async (error: unknown) => {
        if (!(error instanceof RpcUnavailableError)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      });
    expect(answer).toBe('after');
    expect(broker.proxy.connections).toBe(1);
  });

  it('when the queue type is classic, the queue keeps its plain name and classic type; quorum adds .quorum', async () => {
    const queue = uniqueQueue('classic');
    broker.admin.track(queue);
    const rpcServer = createRpcServer({
      url: amqpUrl(),
      logger: pino({ level: 'silent' }),
      queue,
      queueType: 'classic',
      handler: async () => 'classic',
    });
    const rpcClient = client(amqpUrl(), { queueType: 'classic' });
    try {
      await Promise.all([rpcServer.ready(), rpcClient.ready()]);
      await expect(rpcClient.call(queue, {}, { timeoutMs: 5000 })).resolves.toBe('classic');
      const classic = { durable: true, arguments: { 'x-queue-type': 'classic' } };
      await expect(broker.admin.channel.assertQueue(queue, classic)).resolves.toMatchObject({
        consumerCount: 1,
      });
      expect(rpcQueueName(queue, 'classic')).toBe(queue);
      expect(rpcQueueName(queue, 'quorum')).toBe(`${queue}.quorum`);
    } finally {
      await rpcServer.close();
      await broker.admin.channel.deleteQueue(queue);
    }
  });

  it('when an upgraded stack finds the classic queue of the old one, it serves on a quorum queue beside it', async () => {
    const queue = uniqueQueue('upgrade');
    broker.admin.track(queue);
    await broker.admin.channel.assertQueue(queue, { durable: true });
    const rpcServer = server(amqpUrl(), queue, async () => 'quorum');
    const rpcClient = client(amqpUrl());
    try {
      await Promise.all([rpcServer.ready(), rpcClient.ready()]);
      await expect(rpcClient.call(queue, {}, { timeoutMs: 5000 })).resolves.toBe('quorum');
      const quorum = { durable: true, arguments: { 'x-queue-type': 'quorum' } };
      await expect(broker.admin.channel.assertQueue(onBroker(queue), quorum)).resolves.toMatchObject({
        consumerCount: 1,
      });
      expect((await broker.admin.channel.checkQueue(queue)).consumerCount).toBe(0);
    } finally {
      await broker.admin.channel.deleteQueue(queue);
    }
  });

  it('when the queue of the name exists with another type, the server logs the queue and the way out and is not ready', async () => {
    const queue = uniqueQueue('other-type');
    broker.admin.track(queue);
    await broker.admin.channel.assertQueue(onBroker(queue), { durable: true });
    const capture = capturingLogger();
    const rpcServer = createRpcServer({
      url: amqpUrl(),
      logger: capture.logger,
      queue,
      readyTimeoutMs: 1500,
      handler: async () => 'never',
    });
    try {
      await expect(rpcServer.ready()).rejects.toBeInstanceOf(RpcUnavailableError);
      expect(capture.lines()).toContainEqual(
        expect.objectContaining({
          level: 50,
          msg: expect.stringContaining(
            `RPC queue "${onBroker(queue)}" exists with another type or arguments than a durable quorum queue: ` +
              `delete it (rabbitmqctl delete_queue ${onBroker(queue)}) or set RPC_QUEUE_TYPE to its type`,
          ),
        }),
      );
    } finally {
      await rpcServer.close();
    }
  });

  it('when the broker refuses a request (its queue is full), the call rejects at once as not confirmed', async () => {
    const queue = uniqueQueue('refused');
    broker.admin.track(queue);
    await broker.admin.channel.assertQueue(onBroker(queue), {
      durable: true,
      arguments: { 'x-queue-type': 'quorum', 'x-max-length': 1, 'x-overflow': 'reject-publish' },
    });
    // A consumer stuck on its first message, a second one waiting: the queue is consumed and full.
    for (const filler of ['first', 'second', 'third', 'fourth'])
      broker.admin.channel.sendToQueue(onBroker(queue), Buffer.from(filler));
    await broker.admin.channel.prefetch(1);
    const { consumerTag } = await broker.admin.channel.consume(onBroker(queue), () => undefined);
    const rpcClient = client(amqpUrl());
    try {
      const error: unknown = await rpcClient.call(queue, {}, { timeoutMs: 5000 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RpcUnavailableError);
      expect((error as Error).message).toBe(`request to "${onBroker(queue)}" not confirmed by the broker`);
    } finally {
      await broker.admin.channel.cancel(consumerTag);
    }
  });
});
