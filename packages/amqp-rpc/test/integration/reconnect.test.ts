import { amqpUrl, TcpProxy } from '@spam-check/test-support';
import pino from 'pino';
import { createManagedConnection, RpcUnavailableError } from '../../src';
import { brokerFaultSuite, deferred, onBroker, uniqueQueue } from './support';

describe('AMQP RPC when the broker connection drops', () => {
  const broker = brokerFaultSuite();
  const { client, server } = broker;

  it('when the connection is cut under the client, it reconnects and the next call succeeds', async () => {
    const queue = uniqueQueue('client-reconnect');
    const rpcServer = server(amqpUrl(), queue, async (payload) => payload);
    const rpcClient = client(broker.proxy.url);
    await Promise.all([rpcServer.ready(), rpcClient.ready()]);
    await expect(rpcClient.call(queue, 1, { timeoutMs: 5000 })).resolves.toBe(1);

    broker.proxy.drop();
    await broker.proxy.waitForConnections(2);

    await expect(rpcClient.call(queue, 2, { timeoutMs: 5000 })).resolves.toBe(2);
    expect(rpcClient.isConnected()).toBe(true);
  });

  it('when the connection drops while calls are pending, they reject at once with RpcUnavailableError', async () => {
    const queue = uniqueQueue('pending');
    const entered = deferred();
    const release = deferred();
    const rpcServer = server(amqpUrl(), queue, async () => {
      entered.resolve();
      await release.promise;
      return 'too late';
    });
    const rpcClient = client(broker.proxy.url);
    await Promise.all([rpcServer.ready(), rpcClient.ready()]);

    const pending = rpcClient.call(queue, {}, { timeoutMs: 25_000 }).catch((e: unknown) => e);
    await entered.promise;
    broker.proxy.drop();
    const error = await pending;
    release.resolve();

    expect(error).toBeInstanceOf(RpcUnavailableError);
    // The server takes the request over its own connection, the client's publish confirm comes back over the
    // proxied one: the drop may come before that confirm has reached the client. Either way the call ends at
    // once as unavailable, never as a timeout.
    expect((error as Error).message).toMatch(
      /^(AMQP channel closed before the reply arrived|request to ".*" not confirmed by the broker)$/,
    );
  });

  it('when the broker stays unreachable, a call fails with RpcUnavailableError well before its timeout', async () => {
    const queue = uniqueQueue('unreachable');
    const rpcServer = server(amqpUrl(), queue, async () => 'back');
    const rpcClient = client(broker.proxy.url, { reconnectWaitMs: 300, readyTimeoutMs: 300 });
    // The 300 ms are for the outage below: connecting, on a loaded machine, may take longer, and is retried.
    const connected = async () => {
      while (
        !(await rpcClient.ready().then(
          () => true,
          () => false,
        ))
      );
    };
    await Promise.all([rpcServer.ready(), connected()]);

    broker.proxy.refuse(true);
    broker.proxy.drop();
    for (let i = 0; i < 100 && rpcClient.isConnected(); i += 1) await new Promise((r) => setTimeout(r, 10));
    const error: unknown = await rpcClient.call(queue, {}, { timeoutMs: 25_000 }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(RpcUnavailableError);
    expect((error as Error).message).toBe('not connected to the AMQP broker within 300 ms');
    await expect(rpcClient.ready()).rejects.toBeInstanceOf(RpcUnavailableError);

    broker.proxy.refuse(false);
    await connected();
    await expect(rpcClient.call(queue, {}, { timeoutMs: 5000 })).resolves.toBe('back');
  });

  it('when the connection is cut under the server, it reconnects and consumes again', async () => {
    const queue = uniqueQueue('server-reconnect');
    const seen: unknown[] = [];
    const rpcServer = server(broker.proxy.url, queue, async (payload) => {
      seen.push(payload);
      return payload;
    });
    const rpcClient = client(amqpUrl());
    await Promise.all([rpcServer.ready(), rpcClient.ready()]);
    await expect(rpcClient.call(queue, 'before', { timeoutMs: 5000 })).resolves.toBe('before');

    broker.proxy.drop();
    await broker.proxy.waitForConnections(2);
    await rpcServer.ready();

    await expect(rpcClient.call(queue, 'after', { timeoutMs: 5000 })).resolves.toBe('after');
    // At-least-once: if the cut beat the broker to the first ack, 'before' is redelivered (and answered into
    // a reply-to nobody waits on), so it may appear twice; 'after' is handled exactly once.
    expect(seen.filter((payload) => payload === 'after')).toEqual(['after']);
    expect(new Set(seen)).toEqual(new Set(['before', 'after']));
    const { consumerCount } = await broker.admin.channel.checkQueue(onBroker(queue));
    expect(consumerCount).toBe(1);
  });

  it('when a handler was running as the server connection dropped, the request is redelivered and answered', async () => {
    const queue = uniqueQueue('redeliver');
    let attempts = 0;
    const first = deferred();
    const rpcServer = server(broker.proxy.url, queue, async () => {
      attempts += 1;
      if (attempts === 1) {
        first.resolve();
        await new Promise((r) => setTimeout(r, 200));
      }
      return attempts;
    });
    const rpcClient = client(amqpUrl());
    await Promise.all([rpcServer.ready(), rpcClient.ready()]);

    const call = rpcClient.call(queue, {}, { timeoutMs: 10_000 });
    await first.promise;
    broker.proxy.drop();

    await expect(call).resolves.toBe(2);
  });

  it('when its queue is deleted under it, the server declares it again and keeps serving', async () => {
    const queue = uniqueQueue('queue-deleted');
    const rpcServer = server(broker.proxy.url, queue, async (payload) => payload);
    const rpcClient = client(amqpUrl());
    await Promise.all([rpcServer.ready(), rpcClient.ready()]);

    await broker.admin.channel.deleteQueue(onBroker(queue));
    await broker.proxy.waitForConnections(2);
    await rpcServer.ready();

    await expect(rpcClient.call(queue, 'again', { timeoutMs: 5000 })).resolves.toBe('again');
  });
});

describe('AMQP connection set-up on a broker that stalls', () => {
  let proxy: TcpProxy;
  beforeEach(async () => {
    proxy = await TcpProxy.start(amqpUrl(), 5672);
  });
  afterEach(() => proxy.close());

  it('when a broker stalls during set-up, the attempt is given up after its bound and the next broker connects', async () => {
    const brokers: string[] = [];
    const connection = createManagedConnection({
      // The first broker is reached through the proxy, frozen for good once the handshake is done.
      url: [proxy.url, amqpUrl()],
      logger: pino({ level: 'silent' }),
      connectionName: 'stalled-setup-test',
      connectTimeoutMs: 5000,
      setupTimeoutMs: 500,
      // No heartbeat: only the set-up bound can end the stalled attempt.
      heartbeatSeconds: 0,
      reconnect: { initialDelayMs: 50, maxDelayMs: 200 },
      setup: async (model) => {
        const first = brokers.length === 0;
        brokers.push(first ? 'proxied' : 'direct');
        if (first) proxy.freeze();
        const channel = await model.createChannel();
        await channel.close();
      },
    });
    try {
      await connection.waitUntilConnected(10_000);
      expect(connection.isConnected()).toBe(true);
      expect(brokers).toEqual(['proxied', 'direct']);
    } finally {
      await connection.close();
    }
  });
});
