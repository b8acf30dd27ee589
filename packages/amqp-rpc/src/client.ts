import { randomUUID } from 'node:crypto';
import type { Channel, ChannelModel, ConfirmChannel, ConsumeMessage, Message } from 'amqplib';
import { createManagedConnection, DEFAULT_HEARTBEAT_SECONDS } from './connection';
import { RpcNoConsumerError, RpcRemoteError, RpcTimeoutError, RpcUnavailableError } from './errors';
import { rpcQueueName } from './queue-type';
import { decodeReply } from './reply';
import type { RpcCallOptions, RpcClient, RpcClientOptions } from './types';
import { within } from './within';

/**
 * The reply queue of one connection: exclusive (gone with its connection, on the node the client is connected
 * to) and named by the broker. Not direct reply-to: a reply published to the direct reply-to address of a
 * caller whose node is down crashes the replier's channel and with it the server's connection, and the request,
 * unacked, is redelivered to the next server to crash it again until it expires (RabbitMQ 3.10,
 * `rabbit_channel:deliver_reply`). A reply to a queue that is gone is dropped and confirmed like any unroutable
 * message.
 */
const REPLY_QUEUE = { exclusive: true, autoDelete: true, durable: false } as const;

const MAX_TIMEOUT_MS = 2 ** 31 - 1;

interface PendingCall {
  queue: string;
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

type QueueState = 'consumed' | 'no_consumer' | 'no_queue';

interface WatchedQueue {
  state?: QueueState;
  checkedAt: number;
  checking?: Promise<QueueState>;
}

function queueError(state: Exclude<QueueState, 'consumed'>, queue: string): RpcUnavailableError {
  return state === 'no_queue'
    ? new RpcUnavailableError(`no queue "${queue}" to route the request to`)
    : new RpcNoConsumerError(`nothing consumes "${queue}"`);
}

/**
 * RPC client over one connection and one confirm channel. The reply consumer (noAck, on the connection's
 * exclusive reply queue) is in place before the channel is used to publish; replies are matched to calls by
 * correlation id. A request the broker does not confirm (nack: its queue could not take it) fails at once with
 * RpcUnavailableError.
 *
 * A second channel checks the consumer count of the queues called (passive declare), at most once per
 * `probeIntervalMs` before a call and every `probeIntervalMs` while calls are pending: a queue nobody consumes
 * (twice in a row, `checkQueue`) fails its calls with RpcNoConsumerError, and a check the broker leaves unanswered for
 * `probeTimeoutMs` drops the connection (pending calls fail with RpcUnavailableError) instead of letting every
 * call run into its timeout on a connection that died silently. Heartbeats catch the same while idle.
 */
export function createRpcClient(options: RpcClientOptions): RpcClient {
  return new Client(options);
}

class Client implements RpcClient {
  private readonly log: RpcClientOptions['logger'];
  private readonly reconnectWaitMs: number;
  private readonly probeIntervalMs: number;
  private readonly probeTimeoutMs: number;
  private readonly pending = new Map<string, PendingCall>();
  private readonly watched = new Map<string, WatchedQueue>();
  private readonly connection: ReturnType<typeof createManagedConnection>;
  private channel: ConfirmChannel | undefined;
  private replyQueue = '';
  private model: ChannelModel | undefined;
  private probeChannel: { model: ChannelModel; opening: Promise<Channel> } | undefined;
  private watchdog: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: RpcClientOptions) {
    this.log = options.logger.child({ component: 'amqp-rpc-client' });
    this.reconnectWaitMs = options.reconnectWaitMs ?? 1000;
    this.probeIntervalMs = options.probeIntervalMs ?? 1000;
    this.probeTimeoutMs = options.probeTimeoutMs ?? 2000;
    this.connection = createManagedConnection({
      url: options.url,
      logger: this.log,
      connectionName: options.connectionName ?? `spam-check-rpc-client-${randomUUID().slice(0, 8)}`,
      connectTimeoutMs: options.connectTimeoutMs ?? 5000,
      heartbeatSeconds: options.heartbeatSeconds ?? DEFAULT_HEARTBEAT_SECONDS,
      reconnect: options.reconnect,
      setup: (connected) => this.setup(connected),
    });
  }

  async call<T = unknown>(queue: string, payload: unknown, callOptions: RpcCallOptions): Promise<T> {
    if (this.closed) throw new RpcUnavailableError('RPC client is closed');
    // Above MAX_TIMEOUT_MS setTimeout fires at once; RabbitMQ closes the channel for an expiration >= 2^32.
    if (!(callOptions.timeoutMs > 0 && callOptions.timeoutMs <= MAX_TIMEOUT_MS)) {
      throw new RangeError(`timeoutMs must be in (0, ${MAX_TIMEOUT_MS}], got ${callOptions.timeoutMs}`);
    }
    return this.publish<T>(rpcQueueName(queue, this.options.queueType ?? 'quorum'), payload, callOptions);
  }

  ready(): Promise<void> {
    return this.connection.waitUntilConnected(this.options.readyTimeoutMs ?? 5000);
  }

  isConnected(): boolean {
    return this.channel !== undefined && this.connection.isConnected();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.watchdog);
    this.watchdog = undefined;
    this.failAll('RPC client closed');
    await this.connection.close();
    this.channel = undefined;
    this.model = undefined;
  }

  private settle(correlationId: unknown, outcome: (call: PendingCall) => void): boolean {
    if (typeof correlationId !== 'string') return false;
    const call = this.pending.get(correlationId);
    if (!call) return false;
    this.pending.delete(correlationId);
    clearTimeout(call.timer);
    outcome(call);
    return true;
  }

  private failAll(reason: string): void {
    this.watched.clear();
    for (const correlationId of [...this.pending.keys()]) {
      this.settle(correlationId, (call) => call.reject(new RpcUnavailableError(reason)));
    }
  }

  private failQueue(queue: string, error: RpcUnavailableError): void {
    for (const [correlationId, call] of [...this.pending]) {
      if (call.queue === queue) this.settle(correlationId, (found) => found.reject(error));
    }
  }

  /** Gives up a connection that stopped answering: its replies can no longer arrive. */
  private abandon(dead: ChannelModel, reason: string): void {
    if (this.model !== dead) return;
    this.model = undefined;
    this.channel = undefined;
    this.failAll(reason);
    this.connection.restart(dead, reason);
  }

  private probeChannelOf(current: ChannelModel): Promise<Channel> {
    if (this.probeChannel?.model !== current) {
      const opening = current.createChannel().then((opened) => {
        // A passive declare of a missing queue closes the channel (404): the next check opens another.
        opened.on('error', (error: Error) => this.log.debug({ err: error }, 'AMQP probe channel closed'));
        opened.once('close', () => {
          if (this.probeChannel?.opening === opening) this.probeChannel = undefined;
        });
        return opened;
      });
      opening.catch(() => {
        if (this.probeChannel?.opening === opening) this.probeChannel = undefined;
      });
      this.probeChannel = { model: current, opening };
    }
    return this.probeChannel.opening;
  }

  /**
   * The queue's state, `no_consumer` only when two checks half a probe interval apart both count none: a
   * quorum queue whose leader does not answer the broker's own short stat timeout (a loaded node, a leader
   * election, a node rejoining) is reported with 0 consumers, so one such answer proves nothing.
   */
  private async checkQueue(queue: string): Promise<QueueState> {
    const first = await this.checkQueueOnce(queue);
    if (first !== 'no_consumer') return first;
    await new Promise((resolve) => setTimeout(resolve, this.probeIntervalMs / 2));
    return this.checkQueueOnce(queue);
  }

  private async checkQueueOnce(queue: string): Promise<QueueState> {
    const current = this.model;
    if (!current) throw new RpcUnavailableError('not connected to the AMQP broker');
    const unanswered = new RpcUnavailableError(
      `the AMQP broker did not answer a queue check within ${this.probeTimeoutMs} ms`,
    );
    try {
      const { consumerCount } = await within(
        this.probeChannelOf(current).then((probe) => probe.checkQueue(queue)),
        this.probeTimeoutMs,
        () => unanswered,
      );
      return consumerCount > 0 ? 'consumed' : 'no_consumer';
    } catch (error) {
      if ((error as { code?: unknown }).code === 404) return 'no_queue';
      if (error === unanswered) this.abandon(current, unanswered.message);
      throw error instanceof RpcUnavailableError
        ? error
        : new RpcUnavailableError('AMQP queue check failed', { cause: error });
    }
  }

  /**
   * The queue's state: a `consumed` answer younger than `probeIntervalMs` is reused, anything else is checked
   * again, so a consumer that comes back is used at once (one check at a time per queue).
   */
  private queueState(queue: string, fresh: boolean): Promise<QueueState> {
    let entry = this.watched.get(queue);
    if (!entry) {
      entry = { checkedAt: 0 };
      this.watched.set(queue, entry);
    }
    if (entry.checking) return entry.checking;
    if (!fresh && entry.state === 'consumed' && Date.now() - entry.checkedAt < this.probeIntervalMs)
      return Promise.resolve(entry.state);
    const target = entry;
    target.checking = this.checkQueue(queue)
      .then((state) => {
        target.state = state;
        target.checkedAt = Date.now();
        return state;
      })
      .finally(() => {
        target.checking = undefined;
      });
    return target.checking;
  }

  private watchPendingCalls(): void {
    if (this.watchdog || this.closed) return;
    this.watchdog = setInterval(() => {
      const queues = new Set([...this.pending.values()].map((call) => call.queue));
      if (queues.size === 0) {
        clearInterval(this.watchdog);
        this.watchdog = undefined;
        return;
      }
      for (const queue of queues) {
        this.queueState(queue, true).then(
          (state) => {
            if (state !== 'consumed') this.failQueue(queue, queueError(state, queue));
          },
          // A dead connection was abandoned and its calls failed there; a failed check proves nothing.
          () => undefined,
        );
      }
    }, this.probeIntervalMs);
    this.watchdog.unref();
  }

  private onReply(message: ConsumeMessage | null, model: ChannelModel): void {
    if (!message) {
      this.connection.restart(model, 'reply consumer cancelled by the broker');
      return;
    }
    const correlationId: unknown = message.properties.correlationId;
    const reply = decodeReply(message.content);
    const matched = this.settle(correlationId, (call) =>
      reply.ok ? call.resolve(reply.result) : call.reject(new RpcRemoteError(reply.problem)),
    );
    if (!matched) this.log.debug({ correlationId }, 'RPC reply matches no pending call (timed out); dropped');
  }

  private async setup(connected: ChannelModel): Promise<void> {
    const opened = await connected.createConfirmChannel();
    opened.on('error', (error: Error) => this.log.warn({ err: error }, 'AMQP channel error'));
    opened.on('return', (message: Message) =>
      this.settle(message.properties.correlationId, (call) =>
        call.reject(queueError('no_queue', call.queue)),
      ),
    );
    opened.once('close', () => {
      if (this.channel !== opened) return;
      this.channel = undefined;
      this.model = undefined;
      this.failAll('AMQP channel closed before the reply arrived');
      // Deferred: when the whole connection closes, its own close event comes right after this one.
      setImmediate(() => this.connection.restart(connected, 'reply channel closed'));
    });
    const { queue } = await opened.assertQueue('', REPLY_QUEUE);
    await opened.consume(queue, (message) => this.onReply(message, connected), { noAck: true });
    this.replyQueue = queue;
    this.channel = opened;
    this.model = connected;
  }

  private async publish<T>(queue: string, payload: unknown, callOptions: RpcCallOptions): Promise<T> {
    const deadline = Date.now() + callOptions.timeoutMs;
    if (!this.channel)
      await this.connection.waitUntilConnected(Math.min(callOptions.timeoutMs, this.reconnectWaitMs));
    const timedOut = () => new RpcTimeoutError(`no reply from "${queue}" within ${callOptions.timeoutMs} ms`);
    const state = await within(this.queueState(queue, false), deadline - Date.now(), timedOut);
    if (state !== 'consumed') throw queueError(state, queue);
    const target = this.channel;
    if (!target) throw new RpcUnavailableError('not connected to the AMQP broker');
    const remainingMs = Math.ceil(deadline - Date.now());
    if (remainingMs <= 0) throw timedOut();
    const json = JSON.stringify(payload);
    if (json === undefined) throw new TypeError('RPC payload must be JSON-serialisable');
    const correlationId = randomUUID();

    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(
        () => this.settle(correlationId, (call) => call.reject(timedOut())),
        remainingMs,
      );
      this.pending.set(correlationId, {
        queue,
        resolve: resolve as (result: unknown) => void,
        reject,
        timer,
      });
      this.watchPendingCalls();
      this.send(target, queue, json, correlationId, remainingMs, callOptions);
    });
  }

  private send(
    target: ConfirmChannel,
    queue: string,
    json: string,
    correlationId: string,
    remainingMs: number,
    callOptions: RpcCallOptions,
  ): void {
    try {
      target.sendToQueue(
        queue,
        Buffer.from(json),
        {
          correlationId,
          replyTo: this.replyQueue,
          expiration: String(remainingMs),
          headers: callOptions.headers ?? {},
          contentType: 'application/json',
          deliveryMode: 1,
          mandatory: true,
        },
        (error: unknown) => {
          // A request returned as unroutable was settled by the `return` event already.
          if (error)
            this.settle(correlationId, (call) =>
              call.reject(new RpcUnavailableError(`request to "${queue}" not confirmed by the broker`)),
            );
        },
      );
    } catch (error) {
      const closedChannel = error instanceof Error && error.name === 'IllegalOperationError';
      this.settle(correlationId, (call) =>
        call.reject(
          closedChannel ? new RpcUnavailableError('AMQP channel closed', { cause: error }) : (error as Error),
        ),
      );
    }
  }
}
