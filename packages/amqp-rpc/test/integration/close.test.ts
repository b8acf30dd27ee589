import path from 'node:path';
import pino from 'pino';
import { amqpUrl, runFixture } from '@spam-check/test-support';
import { createRpcClient, createRpcServer, RpcUnavailableError } from '../../src';
import { deferred, openAdmin, uniqueQueue } from './support';

const logger = pino({ level: 'silent' });

const FIXTURE = path.join(__dirname, 'fixtures', 'call-and-close.ts');

describe('closing the RPC client and server', () => {
  it('after one call and close(), a process exits by itself and later calls reject with RpcUnavailableError', async () => {
    const admin = await openAdmin();
    const queue = admin.track(uniqueQueue('close'));

    // A leaked handle keeps the child alive: it is killed and the test fails on the exit code.
    const { code, stdout, stderr } = await runFixture(FIXTURE, {
      cwd: path.join(__dirname, '..', '..'),
      args: [queue],
      env: { ...process.env, AMQP_URL: amqpUrl() },
    });

    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(stdout)).toEqual({ result: 'ping', afterClose: true, connected: false });
    await admin.close();
  });

  it('rejects pending calls when the client closes, and lets running handlers reply before the server closes', async () => {
    const admin = await openAdmin();
    const queue = admin.track(uniqueQueue('drain'));
    // One signal per call the handler takes: the abandoned call's, then the patient one's.
    const entered = [deferred(), deferred()];
    let calls = 0;
    const server = createRpcServer({
      url: amqpUrl(),
      logger,
      queue,
      handler: async () => {
        entered[calls++]?.resolve();
        await new Promise((r) => setTimeout(r, 150));
        return 'drained';
      },
    });
    const waiting = createRpcClient({ url: amqpUrl(), logger });
    const patient = createRpcClient({ url: amqpUrl(), logger });
    await Promise.all([server.ready(), waiting.ready(), patient.ready()]);

    const abandoned = waiting.call(queue, {}, { timeoutMs: 20_000 }).catch((e: unknown) => e);
    await entered[0]!.promise;
    await waiting.close();
    expect(await abandoned).toBeInstanceOf(RpcUnavailableError);

    const answered = patient.call(queue, {}, { timeoutMs: 5000 });
    // The server closes while the handler runs (not before the call reached it: that is another case).
    await entered[1]!.promise;
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
