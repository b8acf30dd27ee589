import pino from 'pino';
import { amqpUrl } from '@spam-check/test-support';
import {
  createRpcClient,
  createRpcServer,
  RpcNoConsumerError,
  RpcRemoteError,
  RpcTimeoutError,
  RpcUnavailableError,
  type RpcClient,
  type RpcServer,
} from '../../src';
import type { ConsumeMessage } from 'amqplib';
import { capturingLogger, deferred, onBroker, openAdmin, uniqueQueue } from './support';

const logger = pino({ level: 'silent' });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('AMQP RPC against RabbitMQ', () => {
  let admin: Awaited<ReturnType<typeof openAdmin>>;
  let client: RpcClient;
  const servers: RpcServer[] = [];

  async function startServer(
    queue: string,
    handler: RpcServerOptionsHandler,
    extra = {},
  ): Promise<RpcServer> {
    admin.track(queue);
    const server = createRpcServer({ url: amqpUrl(), logger, queue, handler, ...extra });
    servers.push(server);
    await server.ready();
    return server;
  }

  beforeAll(async () => {
    admin = await openAdmin();
    client = createRpcClient({ url: amqpUrl(), logger });
    await client.ready();
  });

  afterAll(async () => {
    await client.close();
    for (const server of servers) await server.close();
    await admin.close();
  });

  it('when a handler returns, the call resolves with its result and the handler got payload and headers', async () => {
    const queue = uniqueQueue('round-trip');
    const seen: Array<{ payload: unknown; headers: Record<string, string> }> = [];
    await startServer(queue, async (payload, headers) => {
      seen.push({ payload, headers });
      return { echoed: payload, language: headers['accept-language'] };
    });

    const result = await client.call(
      queue,
      { email: 'a@example.com' },
      {
        timeoutMs: 5000,
        headers: { 'x-request-id': 'req-1', 'accept-language': 'fr', 'x-client-id': 'client-1' },
      },
    );

    expect(result).toEqual({ echoed: { email: 'a@example.com' }, language: 'fr' });
    expect(seen).toEqual([
      {
        payload: { email: 'a@example.com' },
        headers: { 'x-request-id': 'req-1', 'accept-language': 'fr', 'x-client-id': 'client-1' },
      },
    ]);
  });

  it('when many calls run at once, each gets the reply to its own request', async () => {
    const queue = uniqueQueue('concurrent');
    await startServer(
      queue,
      async (payload) => {
        const { n } = payload as { n: number };
        // Replies leave in a different order than requests arrived.
        await new Promise((resolve) => setTimeout(resolve, (n * 7) % 40));
        return { square: n * n };
      },
      { prefetch: 8 },
    );

    const numbers = Array.from({ length: 40 }, (_, i) => i);
    const results = await Promise.all(numbers.map((n) => client.call(queue, { n }, { timeoutMs: 10_000 })));

    expect(results).toEqual(numbers.map((n) => ({ square: n * n })));
  });

  it('when a handler throws an error with toRpcProblem(), the call rejects with RpcRemoteError carrying it', async () => {
    const queue = uniqueQueue('problem');
    await startServer(queue, async () => {
      throw Object.assign(new Error('quota'), {
        toRpcProblem: () => ({ code: 'RATE_LIMITED', status: 429, retry_after: 3 }),
      });
    });

    const error: unknown = await client.call(queue, {}, { timeoutMs: 5000 }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(RpcRemoteError);
    expect((error as RpcRemoteError).problem).toEqual({ code: 'RATE_LIMITED', status: 429, retry_after: 3 });
  });

  it('when a handler throws an object with a problem, the call rejects with that problem', async () => {
    const queue = uniqueQueue('problem-object');
    await startServer(queue, async () => {
      // eslint-disable-next-line @typescript-eslint/only-throw-error
      throw { problem: { code: 'VALIDATION_FAILED', status: 400, errors: [{ path: 'email' }] } };
    });

    await expect(client.call(queue, {}, { timeoutMs: 5000 })).rejects.toMatchObject({
      name: 'RpcRemoteError',
      problem: { code: 'VALIDATION_FAILED', status: 400, errors: [{ path: 'email' }] },
    });
  });

  it('when a handler throws anything else, the reply is a bare INTERNAL_ERROR and the server keeps serving', async () => {
    const queue = uniqueQueue('crash');
    let calls = 0;
    await startServer(queue, async () => {
      calls += 1;
      if (calls === 1) throw new Error('secret database password in message');
      return 'fine';
    });

    const error: unknown = await client.call(queue, {}, { timeoutMs: 5000 }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(RpcRemoteError);
    expect((error as RpcRemoteError).problem).toEqual({ code: 'INTERNAL_ERROR', status: 500 });
    await expect(client.call(queue, {}, { timeoutMs: 5000 })).resolves.toBe('fine');
    expect(calls).toBe(2);
    const { messageCount } = await admin.channel.checkQueue(onBroker(queue));
    expect(messageCount).toBe(0);
  });

  it('when a request is not JSON, it is rejected without requeue, logged, answered, and serving goes on', async () => {
    const queue = uniqueQueue('malformed');
    const capture = capturingLogger();
    const handled: unknown[] = [];
    admin.track(queue);
    const server = createRpcServer({
      url: amqpUrl(),
      logger: capture.logger,
      queue,
      handler: async (payload) => {
        handled.push(payload);
        return 'ok';
      },
    });
    servers.push(server);
    await server.ready();
    const replies: Array<{ body: string; correlationId: unknown }> = [];
    const { queue: replyQueue } = await admin.channel.assertQueue('', { exclusive: true });
    const { consumerTag } = await admin.channel.consume(
      replyQueue,
      (message) => {
        if (message)
          replies.push({ body: message.content.toString(), correlationId: message.properties.correlationId });
      },
      { noAck: true },
    );

    admin.channel.sendToQueue(onBroker(queue), Buffer.from('{not json'), {
      replyTo: replyQueue,
      correlationId: 'bad-1',
    });
    for (let i = 0; i < 100 && replies.length === 0; i += 1) await new Promise((r) => setTimeout(r, 20));
    await admin.channel.cancel(consumerTag);

    expect(replies).toEqual([
      {
        body: JSON.stringify({
          ok: false,
          problem: { code: 'INTERNAL_ERROR', status: 500, detail: 'malformed RPC request' },
        }),
        correlationId: 'bad-1',
      },
    ]);
    expect(capture.lines()).toContainEqual(
      expect.objectContaining({
        level: 40,
        msg: 'RPC request is not JSON; rejected',
        correlationId: 'bad-1',
      }),
    );
    await expect(client.call(queue, { after: true }, { timeoutMs: 5000 })).resolves.toBe('ok');
    expect(handled).toEqual([{ after: true }]);
    expect((await admin.channel.checkQueue(onBroker(queue))).messageCount).toBe(0);
  });

  it('publishes with its exclusive reply queue, a UUID correlation id, the headers, and the timeout as expiration', async () => {
    const queue = await admin.declare(uniqueQueue('wire'));
    const received = deferred<ConsumeMessage>();
    const { consumerTag } = await admin.channel.consume(
      onBroker(queue),
      (delivered) => delivered && received.resolve(delivered),
      { noAck: true },
    );

    const call = client.call(
      queue,
      { title: 'hi' },
      { timeoutMs: 4000, headers: { 'x-request-id': 'req-9' } },
    );
    const message = await received.promise;
    await admin.channel.cancel(consumerTag);
    const { properties } = message;
    admin.channel.sendToQueue(
      properties.replyTo as string,
      Buffer.from(JSON.stringify({ ok: true, result: 'answered by hand' })),
      { correlationId: properties.correlationId as string },
    );

    await expect(call).resolves.toBe('answered by hand');
    expect(JSON.parse(message.content.toString())).toEqual({ title: 'hi' });
    expect(properties.replyTo).toMatch(/^amq\.gen-/);
    expect(properties.correlationId).toMatch(UUID);
    expect(properties.headers).toMatchObject({ 'x-request-id': 'req-9' });
    const expiration = Number(properties.expiration);
    expect(expiration).toBeGreaterThan(3000);
    expect(expiration).toBeLessThanOrEqual(4000);
  });

  it('when nobody answers in time, the call rejects with RpcTimeoutError and the broker drops the request', async () => {
    const queue = uniqueQueue('timeout');
    const seen: unknown[] = [];
    const busy = deferred();
    const release = deferred();
    await startServer(
      queue,
      async (payload) => {
        seen.push(payload);
        busy.resolve();
        if ((payload as { block?: boolean }).block) await release.promise;
        return 'served';
      },
      { prefetch: 1 },
    );
    const blocking = client.call(queue, { block: true }, { timeoutMs: 5000 });
    await busy.promise;

    await expect(client.call(queue, { late: true }, { timeoutMs: 200 })).rejects.toBeInstanceOf(
      RpcTimeoutError,
    );
    await new Promise((r) => setTimeout(r, 100));
    release.resolve();
    await expect(blocking).resolves.toBe('served');

    await expect(client.call(queue, { late: false }, { timeoutMs: 5000 })).resolves.toBe('served');
    expect(seen).toEqual([{ block: true }, { late: false }]);
  });

  it('when the queue exists but nothing consumes it any more, the call rejects fast with RpcNoConsumerError', async () => {
    const queue = uniqueQueue('no-consumer');
    const server = await startServer(queue, async () => 'served');
    await expect(client.call(queue, {}, { timeoutMs: 5000 })).resolves.toBe('served');
    await server.close();

    const startedAt = Date.now();
    const error: unknown = await client.call(queue, {}, { timeoutMs: 20_000 }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(RpcNoConsumerError);
    expect(error).toBeInstanceOf(RpcUnavailableError);
    expect((error as Error).message).toBe(`nothing consumes "${onBroker(queue)}"`);
    expect(Date.now() - startedAt).toBeLessThan(5000);
  });

  it('when a queue has never had a consumer, the first call rejects at once without publishing', async () => {
    const queue = await admin.declare(uniqueQueue('never-consumed'));

    await expect(client.call(queue, {}, { timeoutMs: 20_000 })).rejects.toBeInstanceOf(RpcNoConsumerError);
    expect((await admin.channel.checkQueue(onBroker(queue))).messageCount).toBe(0);
  });

  it('when the only consumer goes away while a call is pending, the call rejects with RpcNoConsumerError', async () => {
    const queue = await admin.declare(uniqueQueue('consumer-gone'));
    const received = deferred();
    const { consumerTag } = await admin.channel.consume(onBroker(queue), () => received.resolve(), {
      noAck: false,
    });

    const startedAt = Date.now();
    const call = client.call(queue, {}, { timeoutMs: 20_000 }).catch((e: unknown) => e);
    await received.promise;
    await admin.channel.cancel(consumerTag);
    await admin.channel.recover();
    const error = await call;

    expect(error).toBeInstanceOf(RpcNoConsumerError);
    expect(Date.now() - startedAt).toBeLessThan(10_000);
  });

  it('when the queue does not exist, the call rejects at once with RpcUnavailableError', async () => {
    const queue = uniqueQueue('missing');

    const error: unknown = await client.call(queue, {}, { timeoutMs: 20_000 }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(RpcUnavailableError);
    expect((error as Error).message).toContain(queue);
  });

  it('rejects a call whose timeout is not positive or too large to be a timer and an expiration', async () => {
    for (const timeoutMs of [0, -1, Number.NaN, 2 ** 31, 1e14]) {
      await expect(client.call(uniqueQueue('x'), {}, { timeoutMs })).rejects.toBeInstanceOf(RangeError);
    }
    expect(client.isConnected()).toBe(true);
  });
});

type RpcServerOptionsHandler = (payload: unknown, headers: Record<string, string>) => Promise<unknown>;
