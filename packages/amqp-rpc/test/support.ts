import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import net from 'node:net';
import { connect, type Channel, type ChannelModel } from 'amqplib';
import pino, { type Logger } from 'pino';
import { amqpUrl } from '@spam-check/test-support';

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

/**
 * A TCP proxy in front of the broker: the code under test connects through it, and the test cuts the
 * connection the way a network failure or broker restart would, without touching anyone else's connections.
 */
export class BrokerProxy {
  private readonly sockets = new Set<net.Socket>();
  private readonly server = net.createServer((client) => this.accept(client));
  private readonly target = new URL(amqpUrl());
  private refusing = false;
  private accepted = 0;

  static async start(): Promise<BrokerProxy> {
    const proxy = new BrokerProxy();
    proxy.server.listen(0, '127.0.0.1');
    await once(proxy.server, 'listening');
    return proxy;
  }

  /** The broker URL with the proxy's address. */
  get url(): string {
    const url = new URL(this.target);
    url.hostname = '127.0.0.1';
    url.port = String((this.server.address() as net.AddressInfo).port);
    return url.toString();
  }

  /** Number of connections accepted and forwarded so far. */
  get connections(): number {
    return this.accepted;
  }

  private accept(client: net.Socket): void {
    if (this.refusing) {
      client.destroy();
      return;
    }
    this.accepted += 1;
    const upstream = net.connect(Number(this.target.port || 5672), this.target.hostname);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  }

  /** Cuts every open connection at once (both directions). */
  drop(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  /** While refusing, new connections are closed as soon as they are accepted. */
  refuse(refusing: boolean): void {
    this.refusing = refusing;
  }

  /** Resolves when the proxy has forwarded more than `count` connections. */
  async waitForConnections(count: number, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.accepted < count) {
      if (Date.now() > deadline) throw new Error(`proxy saw ${this.accepted} connections, expected ${count}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async close(): Promise<void> {
    this.drop();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
