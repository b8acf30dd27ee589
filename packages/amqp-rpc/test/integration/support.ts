import { randomUUID } from 'node:crypto';
import { connect, type Channel, type ChannelModel } from 'amqplib';
import pino, { type Logger } from 'pino';
import { amqpUrl, TcpProxy } from '@spam-check/test-support';
import {
  createRpcClient,
  createRpcServer,
  rpcQueueName,
  type RpcClient,
  type RpcClientOptions,
  type RpcServer,
} from '../../src';

export function uniqueQueue(label: string): string {
  return `test.amqp-rpc.${label}.${randomUUID()}`;
}

/** The queue the broker holds for an RPC queue name: client and server use quorum queues by default. */
export const onBroker = (queue: string): string => rpcQueueName(queue, 'quorum');

/** A pino logger whose lines are kept for assertions. */
export function capturingLogger(): { logger: Logger; lines: () => Array<Record<string, unknown>> } {
  const raw: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void raw.push(line) });
  return { logger, lines: () => raw.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

/**
 * A direct connection for arranging and inspecting broker state; `declare` makes the quorum queue of an RPC
 * queue name, as a server would; the queues it was told about are deleted at the end.
 */
export async function openAdmin(): Promise<{
  channel: Channel;
  track: (queue: string) => string;
  declare: (queue: string) => Promise<string>;
  close: () => Promise<void>;
}> {
  const model: ChannelModel = await connect(amqpUrl());
  const channel = await model.createChannel();
  const queues: string[] = [];
  return {
    channel,
    track: (queue) => {
      queues.push(queue);
      return queue;
    },
    declare: async (queue) => {
      queues.push(queue);
      await channel.assertQueue(onBroker(queue), { durable: true, arguments: { 'x-queue-type': 'quorum' } });
      return queue;
    },
    close: async () => {
      for (const queue of queues) await channel.deleteQueue(onBroker(queue));
      await model.close();
    },
  };
}

/** A TCP proxy in front of the test broker (TcpProxy): `proxy.url` is the broker URL through it. */
function startBrokerProxy(): Promise<TcpProxy> {
  return TcpProxy.start(amqpUrl(), 5672);
}

export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * What a suite about a broken broker connection sets up, with its own hooks: an admin connection, a broker
 * proxy new for each test, and RPC clients and servers (silent, quick to reconnect) closed after each test,
 * before the proxy (thawed first, so that they can close cleanly).
 */
export function brokerFaultSuite() {
  const logger = pino({ level: 'silent' });
  const reconnect = { initialDelayMs: 50, maxDelayMs: 500 };
  let admin: Awaited<ReturnType<typeof openAdmin>>;
  let proxy: TcpProxy;
  const closers: Array<{ close: () => Promise<void> }> = [];
  const closed = <T extends { close: () => Promise<void> }>(created: T): T => {
    closers.push(created);
    return created;
  };

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
  afterAll(() => admin.close());

  return {
    get admin() {
      return admin;
    },
    get proxy() {
      return proxy;
    },
    client: (url: string | readonly string[], extra: Partial<RpcClientOptions> = {}): RpcClient =>
      closed(createRpcClient({ url, logger, reconnect, ...extra })),
    server: (
      url: string | readonly string[],
      queue: string,
      handler = async (payload: unknown) => payload,
    ): RpcServer => closed(createRpcServer({ url, logger, queue: admin.track(queue), reconnect, handler })),
  };
}
