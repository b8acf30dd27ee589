import pino from 'pino';
import { amqpUrl, type TcpProxy } from '@spam-check/test-support';
import {
  createRpcClient,
  createRpcServer,
  RpcUnavailableError,
  type RpcClient,
  type RpcClientOptions,
  type RpcServer,
} from '../src';
import { startBrokerProxy, openAdmin, uniqueQueue } from './support';

const logger = pino({ level: 'silent' });
const reconnect = { initialDelayMs: 50, maxDelayMs: 500 };

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function failureOf(call: Promise<unknown>): Promise<{ error: unknown; elapsedMs: number }> {
  const startedAt = Date.now();
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  return { error, elapsedMs: Date.now() - startedAt };
}

describe('AMQP RPC when the broker connection goes silent (partition: nothing fails, nothing arrives)', () => {
  let admin: Awaited<ReturnType<typeof openAdmin>>;
  let proxy: TcpProxy;
  const closers: Array<{ close: () => Promise<void> }> = [];

  function client(url: string, extra: Partial<RpcClientOptions> = {}): RpcClient {
    const created = createRpcClient({ url, logger, reconnect, ...extra });
    closers.push(created);
    return created;
  }

  function server(url: string, queue: string): RpcServer {
    admin.track(queue);
    const created = createRpcServer({ url, logger, queue, reconnect, handler: async (payload) => payload });
    closers.push(created);
    return created;
  }

  beforeAll(async () => {
    admin = await openAdmin();
  });

  beforeEach(async () => {
    proxy = await startBrokerProxy();
  });

  afterEach(async () => {
    proxy.thaw();
    for (const closer of closers.splice(0)) await closer.close();
    await proxy.close();
  });

  afterAll(async () => {
    await admin.close();
  });

  it('when the connection goes silent while idle, heartbeats turn client and server not connected', async () => {
    const queue = uniqueQueue('silent-idle');
    // The server's 1 s comes from the URL, which wins over the 5 s default (a 5 s heartbeat would need 10 s).
    const withHeartbeat = new URL(proxy.url);
    withHeartbeat.searchParams.set('heartbeat', '1');
    const rpcServer = server(withHeartbeat.toString(), queue);
    const rpcClient = client(proxy.url, { heartbeatSeconds: 1 });
    await Promise.all([rpcServer.ready(), rpcClient.ready()]);
    await expect(rpcClient.call(queue, 'before', { timeoutMs: 5000 })).resolves.toBe('before');

    proxy.freeze();
    await until(() => !rpcClient.isConnected() && !rpcServer.isConnected(), 8000);

    proxy.thaw();
    await until(() => rpcClient.isConnected() && rpcServer.isConnected(), 15_000);
    await expect(rpcClient.call(queue, 'after', { timeoutMs: 5000 })).resolves.toBe('after');
  });

  it('when the connection goes silent with a call pending, the call fails with RpcUnavailableError long before its timeout', async () => {
    const queue = uniqueQueue('silent-pending');
    const rpcServer = server(amqpUrl(), queue);
    const rpcClient = client(proxy.url);
    await Promise.all([rpcServer.ready(), rpcClient.ready()]);
    await expect(rpcClient.call(queue, 'before', { timeoutMs: 5000 })).resolves.toBe('before');

    proxy.freeze();
    const pending = await failureOf(rpcClient.call(queue, 'lost', { timeoutMs: 10_000 }));

    expect(pending.error).toBeInstanceOf(RpcUnavailableError);
    expect(pending.elapsedMs).toBeLessThan(6000);
    expect(rpcClient.isConnected()).toBe(false);

    const next = await failureOf(rpcClient.call(queue, 'next', { timeoutMs: 10_000 }));
    expect(next.error).toBeInstanceOf(RpcUnavailableError);
    expect(next.elapsedMs).toBeLessThan(3000);

    proxy.thaw();
    await until(() => rpcClient.isConnected(), 15_000);
    await expect(rpcClient.call(queue, 'after', { timeoutMs: 5000 })).resolves.toBe('after');
  });
});
