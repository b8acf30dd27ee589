import pino from 'pino';
import { startRabbitCluster, type RabbitCluster } from '@spam-check/test-support';
import {
  createRpcClient,
  createRpcServer,
  RpcUnavailableError,
  type RpcClient,
  type RpcServer,
} from '../../src';
import { capturingLogger, deferred, onBroker, uniqueQueue } from '../integration/support';

/**
 * A caller on one node of a three-node RabbitMQ cluster, a server on another: the caller's node stops while
 * the server handles its request. The server's reply has nowhere to go; it must cost the server nothing.
 */
describe('an RPC server whose caller was on a node that stopped', () => {
  let cluster: RabbitCluster | undefined;
  const starting = new AbortController();
  let clusterStart: Promise<RabbitCluster> | undefined;
  const closers: Array<RpcClient | RpcServer> = [];

  beforeAll(async () => {
    clusterStart = startRabbitCluster({ signal: starting.signal });
    cluster = await clusterStart;
  }, 300_000);

  afterAll(async () => {
    for (const closer of closers) await closer.close();
    starting.abort();
    await (cluster ?? (await clusterStart?.catch(() => undefined)))?.stop();
  }, 180_000);

  /** `messages` (ready and unacknowledged) of the queue, as the server's node reports it. */
  async function messagesIn(queue: string): Promise<number> {
    const listed = await cluster!.queues(cluster!.nodes[1]!.name, 'name', 'messages');
    return Number(listed.find((q) => q.name === queue)?.messages ?? -1);
  }

  it('answers into the void, acks the request once, and keeps its connection', async () => {
    const [callerNode, serverNode] = cluster!.nodes;
    const queue = uniqueQueue('lost-caller');
    const capture = capturingLogger();
    const handled: unknown[] = [];
    const started = deferred();
    const release = deferred();
    const server = createRpcServer({
      url: [serverNode!.url],
      logger: capture.logger,
      queue,
      reconnect: { initialDelayMs: 50, maxDelayMs: 500 },
      handler: async (payload) => {
        handled.push(payload);
        started.resolve();
        await release.promise;
        return 'answered';
      },
    });
    const client = createRpcClient({ url: [callerNode!.url], logger: pino({ level: 'silent' }) });
    closers.push(client, server);
    await Promise.all([server.ready(), client.ready()]);

    const call = client.call(queue, { n: 1 }, { timeoutMs: 60_000 }).catch((error: unknown) => error);
    await started.promise;
    await cluster!.stopApp(callerNode!.name);
    expect(await call).toBeInstanceOf(RpcUnavailableError);
    release.resolve();

    // The request stays in the queue until its delivery is settled: redelivered after a crash, it would stay
    // there (and be handled again) until its 60 s expiration.
    let left = await messagesIn(onBroker(queue));
    for (let i = 0; i < 80 && left !== 0; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      left = await messagesIn(onBroker(queue));
    }
    expect(left).toBe(0);
    expect(handled).toEqual([{ n: 1 }]);
    expect(server.isConnected()).toBe(true);
    expect(capture.lines().filter((line) => /AMQP connection (lost|error)/.test(String(line.msg)))).toEqual(
      [],
    );
  }, 120_000);
});
