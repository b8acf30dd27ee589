import pino from 'pino';
import { amqpUrl } from '@spam-check/test-support';
import { createRpcClient, createRpcServer, RpcUnavailableError } from '../src';
import { deferred, openAdmin, uniqueQueue } from './support';

const logger = pino({ level: 'silent' });

function active(kind: 'TCPSocketWrap' | 'Timeout'): number {
  return process.getActiveResourcesInfo().filter((name) => name === kind).length;
}
const openSockets = (): number => active('TCPSocketWrap');

describe('closing the RPC client and server', () => {
  it('leaves no socket or timer behind, and later calls reject with RpcUnavailableError', async () => {
    const admin = await openAdmin();
    const queue = admin.track(uniqueQueue('close'));
    const before = openSockets();
    const timersBefore = active('Timeout');
    const server = createRpcServer({ url: amqpUrl(), logger, queue, handler: async () => 'ok' });
    const client = createRpcClient({ url: amqpUrl(), logger });
    await Promise.all([server.ready(), client.ready()]);
    await expect(client.call(queue, {}, { timeoutMs: 5000 })).resolves.toBe('ok');
    expect(openSockets()).toBe(before + 2);

    await client.close();
    await server.close();

    // close() resolves on the broker's close-ok; the half-closed TCP socket goes a moment later.
    for (let i = 0; i < 100 && openSockets() > before; i += 1) await new Promise((r) => setTimeout(r, 10));
    expect(openSockets()).toBe(before);
    expect(active('Timeout')).toBeLessThanOrEqual(timersBefore);
    await expect(client.call(queue, {}, { timeoutMs: 5000 })).rejects.toBeInstanceOf(RpcUnavailableError);
    expect(client.isConnected()).toBe(false);
    expect(server.isConnected()).toBe(false);
    await admin.close();
  });

  it('rejects pending calls when the client closes, and lets running handlers reply before the server closes', async () => {
    const admin = await openAdmin();
    const queue = admin.track(uniqueQueue('drain'));
    const entered = deferred();
    const server = createRpcServer({
      url: amqpUrl(),
      logger,
      queue,
      handler: async () => {
        entered.resolve();
        await new Promise((r) => setTimeout(r, 150));
        return 'drained';
      },
    });
    const waiting = createRpcClient({ url: amqpUrl(), logger });
    const patient = createRpcClient({ url: amqpUrl(), logger });
    await Promise.all([server.ready(), waiting.ready(), patient.ready()]);

    const abandoned = waiting.call(queue, {}, { timeoutMs: 20_000 }).catch((e: unknown) => e);
    await entered.promise;
    await waiting.close();
    expect(await abandoned).toBeInstanceOf(RpcUnavailableError);

    const answered = patient.call(queue, {}, { timeoutMs: 5000 });
    await new Promise((r) => setTimeout(r, 20));
    await server.close();
    await expect(answered).resolves.toBe('drained');
    await patient.close();
    await admin.close();
  });

  it('when closed before it ever connected, it stops retrying', async () => {
    const client = createRpcClient({ url: 'amqp://guest:guest@127.0.0.1:1', logger, readyTimeoutMs: 300 });

    await expect(client.ready()).rejects.toBeInstanceOf(RpcUnavailableError);
    await client.close();
    await expect(client.call('any', {}, { timeoutMs: 1000 })).rejects.toBeInstanceOf(RpcUnavailableError);
  });
});
