import { amqpUrl } from '@spam-check/test-support';
import { RpcUnavailableError } from '../../src';
import { brokerFaultSuite, uniqueQueue } from './support';

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
  const broker = brokerFaultSuite();
  const { client, server } = broker;

  it('when the connection goes silent while idle, heartbeats turn client and server not connected', async () => {
    const queue = uniqueQueue('silent-idle');
    // The server's 1 s comes from the URL, which wins over the 5 s default (a 5 s heartbeat would need 10 s).
    const withHeartbeat = new URL(broker.proxy.url);
    withHeartbeat.searchParams.set('heartbeat', '1');
    const rpcServer = server(withHeartbeat.toString(), queue);
    const rpcClient = client(broker.proxy.url, { heartbeatSeconds: 1 });
    await Promise.all([rpcServer.ready(), rpcClient.ready()]);
    await expect(rpcClient.call(queue, 'before', { timeoutMs: 5000 })).resolves.toBe('before');

    broker.proxy.freeze();
    await until(() => !rpcClient.isConnected() && !rpcServer.isConnected(), 8000);

    broker.proxy.thaw();
    await until(() => rpcClient.isConnected() && rpcServer.isConnected(), 15_000);
    await expect(rpcClient.call(queue, 'after', { timeoutMs: 5000 })).resolves.toBe('after');
  });

  it('when the connection goes silent with a call pending, the call fails with RpcUnavailableError long before its timeout', async () => {
    const queue = uniqueQueue('silent-pending');
    const rpcServer = server(amqpUrl(), queue);
    const rpcClient = client(broker.proxy.url);
    await Promise.all([rpcServer.ready(), rpcClient.ready()]);
    await expect(rpcClient.call(queue, 'before', { timeoutMs: 5000 })).resolves.toBe('before');

    broker.proxy.freeze();
    const pending = await failureOf(rpcClient.call(queue, 'lost', { timeoutMs: 10_000 }));

    expect(pending.error).toBeInstanceOf(RpcUnavailableError);
    expect(pending.elapsedMs).toBeLessThan(6000);
    expect(rpcClient.isConnected()).toBe(false);

    const next = await failureOf(rpcClient.call(queue, 'next', { timeoutMs: 10_000 }));
    expect(next.error).toBeInstanceOf(RpcUnavailableError);
    expect(next.elapsedMs).toBeLessThan(3000);

    broker.proxy.thaw();
    await until(() => rpcClient.isConnected(), 15_000);
    await expect(rpcClient.call(queue, 'after', { timeoutMs: 5000 })).resolves.toBe('after');
  });
});
