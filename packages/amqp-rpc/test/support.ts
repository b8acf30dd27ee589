import { randomUUID } from 'node:crypto';
import { connect, type Channel, type ChannelModel } from 'amqplib';
import pino, { type Logger } from 'pino';
import { amqpUrl, TcpProxy } from '@spam-check/test-support';

export function uniqueQueue(label: string): string {
  return `test.amqp-rpc.${label}.${randomUUID()}`;
}

/** A pino logger whose lines are kept for assertions. */
export function capturingLogger(): { logger: Logger; lines: () => Array<Record<string, unknown>> } {
  const raw: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void raw.push(line) });
  return { logger, lines: () => raw.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

/** A direct connection for arranging and inspecting broker state; deletes the queues it was told about. */
export async function openAdmin(): Promise<{
  channel: Channel;
  track: (queue: string) => string;
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
    close: async () => {
      for (const queue of queues) await channel.deleteQueue(queue);
      await model.close();
    },
  };
}

/** A TCP proxy in front of the test broker (TcpProxy): `proxy.url` is the broker URL through it. */
export function startBrokerProxy(): Promise<TcpProxy> {
  return TcpProxy.start(amqpUrl(), 5672);
}

export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
