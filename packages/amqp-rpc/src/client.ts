import { randomUUID } from 'node:crypto';
import type { Channel, ChannelModel, ConsumeMessage, Message } from 'amqplib';
import { createManagedConnection, DEFAULT_HEARTBEAT_SECONDS } from './connection';
import { RpcNoConsumerError, RpcRemoteError, RpcTimeoutError, RpcUnavailableError } from './errors';
import { decodeReply } from './reply';
import type { RpcCallOptions, RpcClient, RpcClientOptions } from './types';

/** RabbitMQ direct reply-to pseudo-queue: replies go straight to this channel's consumer, no queue declared. */
export const DIRECT_REPLY_TO = 'amq.rabbitmq.reply-to';

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

/** Rejects with `onTimeout()` when `promise` has not settled within `ms`. */
function within<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * RPC client over one connection and one channel. The reply consumer (noAck, direct reply-to) is in place
 * before the channel is used to publish; replies are matched to calls by correlation id.
 *
 * A second channel checks the consumer count of the queues called (passive declare), at most once per
 * `probeIntervalMs` before a call and every `probeIntervalMs` while calls are pending: a queue nobody consumes
 * fails its calls at once with RpcNoConsumerError, and a check the broker leaves unanswered for
 * `probeTimeoutMs` drops the connection (pending calls fail with RpcUnavailableError) instead of letting every
 * call run into its timeout on a connection that died silently. Heartbeats catch the same while idle.
 */
export function createRpcClient(options: RpcClientOptions): RpcClient {
  const log = options.logger.child({ component: 'amqp-rpc-client' });
  const reconnectWaitMs = options.reconnectWaitMs ?? 1000;
  const probeIntervalMs = options.probeIntervalMs ?? 1000;
  const probeTimeoutMs = options.probeTimeoutMs ?? 2000;
  const pending = new Map<string, PendingCall>();
  const watched = new Map<string, WatchedQueue>();
  let channel: Channel | undefined;
  let model: ChannelModel | undefined;
  let probeChannel: { model: ChannelModel; opening: Promise<Channel> } | undefined;
  let watchdog: NodeJS.Timeout | undefined;
  let closed = false;

  function settle(correlationId: unknown, outcome: (call: PendingCall) => void): boolean {
    if (typeof correlationId !== 'string') return false;
    const call = pending.get(correlationId);
    if (!call) return false;
    pending.delete(correlationId);
    clearTimeout(call.timer);
    outcome(call);
    return true;
  }

  function failAll(reason: string): void {
    watched.clear();
    for (const correlationId of [...pending.keys()]) {
      settle(correlationId, (call) => call.reject(new RpcUnavailableError(reason)));
    }
  }

  function failQueue(queue: string, error: RpcUnavailableError): void {
    for (const [correlationId, call] of [...pending]) {
      if (call.queue === queue) settle(correlationId, (found) => found.reject(error));
    }
  }

  /** Gives up a connection that stopped answering: its replies can no longer arrive. */
  function abandon(dead: ChannelModel, reason: string): void {
    if (model !== dead) return;
    model = undefined;
    channel = undefined;
    failAll(reason);
    connection.restart(dead, reason);
  }

  function probeChannelOf(current: ChannelModel): Promise<Channel> {
    if (probeChannel?.model !== current) {
      const opening = current.createChannel().then((opened) => {
        // A passive declare of a missing queue closes the channel (404): the next check opens another.
        opened.on('error', (error: Error) => log.debug({ err: error }, 'AMQP probe channel closed'));
        opened.once('close', () => {
          if (probeChannel?.opening === opening) probeChannel = undefined;
        });
        return opened;
      });
      opening.catch(() => {
        if (probeChannel?.opening === opening) probeChannel = undefined;
      });
      probeChannel = { model: current, opening };
    }
    return probeChannel.opening;
  }

  async function checkQueue(queue: string): Promise<QueueState> {
    const current = model;
    if (!current) throw new RpcUnavailableError('not connected to the AMQP broker');
    const unanswered = new RpcUnavailableError(
      `the AMQP broker did not answer a queue check within ${probeTimeoutMs} ms`,
    );
    try {
      const { consumerCount } = await within(
        probeChannelOf(current).then((probe) => probe.checkQueue(queue)),
        probeTimeoutMs,
        () => unanswered,
      );
      return consumerCount > 0 ? 'consumed' : 'no_consumer';
    } catch (error) {
      if ((error as { code?: unknown }).code === 404) return 'no_queue';
      if (error === unanswered) abandon(current, unanswered.message);
      throw error instanceof RpcUnavailableError
        ? error
        : new RpcUnavailableError('AMQP queue check failed', { cause: error });
    }
  }

  /**
   * The queue's state: a `consumed` answer younger than `probeIntervalMs` is reused, anything else is checked
   * again, so a consumer that comes back is used at once (one check at a time per queue).
   */
  function queueState(queue: string, fresh: boolean): Promise<QueueState> {
    let entry = watched.get(queue);
    if (!entry) {
      entry = { checkedAt: 0 };
      watched.set(queue, entry);
    }
    if (entry.checking) return entry.checking;
    if (!fresh && entry.state === 'consumed' && Date.now() - entry.checkedAt < probeIntervalMs)
      return Promise.resolve(entry.state);
    const target = entry;
    target.checking = checkQueue(queue)
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

  function watchPendingCalls(): void {
    if (watchdog || closed) return;
    watchdog = setInterval(() => {
      const queues = new Set([...pending.values()].map((call) => call.queue));
      if (queues.size === 0) {
        clearInterval(watchdog);
        watchdog = undefined;
        return;
      }
      for (const queue of queues) {
        queueState(queue, true).then(
          (state) => {
            if (state !== 'consumed') failQueue(queue, queueError(state, queue));
          },
          // A dead connection was abandoned and its calls failed there; a failed check proves nothing.
          () => undefined,
        );
      }
    }, probeIntervalMs);
    watchdog.unref();
  }

  function onReply(message: ConsumeMessage | null, model: ChannelModel): void {
    if (!message) {
      connection.restart(model, 'reply consumer cancelled by the broker');
      return;
    }
    const correlationId: unknown = message.properties.correlationId;
    const reply = decodeReply(message.content);
    const matched = settle(correlationId, (call) =>
      reply.ok ? call.resolve(reply.result) : call.reject(new RpcRemoteError(reply.problem)),
    );
    if (!matched) log.debug({ correlationId }, 'RPC reply matches no pending call (timed out); dropped');
  }

  function onReturn(message: Message): void {
    settle(message.properties.correlationId, (call) => call.reject(queueError('no_queue', call.queue)));
  }

  async function setup(connected: ChannelModel): Promise<void> {
    const opened = await connected.createChannel();
    opened.on('error', (error: Error) => log.warn({ err: error }, 'AMQP channel error'));
    opened.on('return', onReturn);
    opened.once('close', () => {
      if (channel !== opened) return;
      channel = undefined;
      model = undefined;
      failAll('AMQP channel closed before the reply arrived');
      // Deferred: when the whole connection closes, its own close event comes right after this one.
      setImmediate(() => connection.restart(connected, 'reply channel closed'));
    });
    await opened.consume(DIRECT_REPLY_TO, (message) => onReply(message, connected), { noAck: true });
    channel = opened;
    model = connected;
  }

  const connection = createManagedConnection({
    url: options.url,
    logger: log,
    connectionName: options.connectionName ?? `spam-check-rpc-client-${randomUUID().slice(0, 8)}`,
    connectTimeoutMs: options.connectTimeoutMs ?? 5000,
    heartbeatSeconds: options.heartbeatSeconds ?? DEFAULT_HEARTBEAT_SECONDS,
    reconnect: options.reconnect,
    setup,
  });

  async function publish<T>(queue: string, payload: unknown, callOptions: RpcCallOptions): Promise<T> {
    const deadline = Date.now() + callOptions.timeoutMs;
    if (!channel) await connection.waitUntilConnected(Math.min(callOptions.timeoutMs, reconnectWaitMs));
    const timedOut = () => new RpcTimeoutError(`no reply from "${queue}" within ${callOptions.timeoutMs} ms`);
    const state = await within(queueState(queue, false), deadline - Date.now(), timedOut);
    if (state !== 'consumed') throw queueError(state, queue);
    const target = channel;
    if (!target) throw new RpcUnavailableError('not connected to the AMQP broker');
    const remainingMs = Math.ceil(deadline - Date.now());
    if (remainingMs <= 0) throw timedOut();
    const json = JSON.stringify(payload);
    if (json === undefined) throw new TypeError('RPC payload must be JSON-serialisable');
    const correlationId = randomUUID();

    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => settle(correlationId, (call) => call.reject(timedOut())), remainingMs);
      pending.set(correlationId, { queue, resolve: resolve as (result: unknown) => void, reject, timer });
      watchPendingCalls();
      try {
        target.sendToQueue(queue, Buffer.from(json), {
          correlationId,
          replyTo: DIRECT_REPLY_TO,
          expiration: String(remainingMs),
          headers: callOptions.headers ?? {},
          contentType: 'application/json',
          deliveryMode: 1,
          mandatory: true,
        });
      } catch (error) {
        const closedChannel = error instanceof Error && error.name === 'IllegalOperationError';
        settle(correlationId, (call) =>
          call.reject(
            closedChannel
              ? new RpcUnavailableError('AMQP channel closed', { cause: error })
              : (error as Error),
          ),
        );
      }
    });
  }

  return {
    async call<T = unknown>(queue: string, payload: unknown, callOptions: RpcCallOptions): Promise<T> {
      if (closed) throw new RpcUnavailableError('RPC client is closed');
      // Above MAX_TIMEOUT_MS setTimeout fires at once; RabbitMQ closes the channel for an expiration >= 2^32.
      if (!(callOptions.timeoutMs > 0 && callOptions.timeoutMs <= MAX_TIMEOUT_MS)) {
        throw new RangeError(`timeoutMs must be in (0, ${MAX_TIMEOUT_MS}], got ${callOptions.timeoutMs}`);
      }
      return publish<T>(queue, payload, callOptions);
    },

    ready: () => connection.waitUntilConnected(options.readyTimeoutMs ?? 5000),

    isConnected: () => channel !== undefined && connection.isConnected(),

    async close() {
      if (closed) return;
      closed = true;
      clearInterval(watchdog);
      watchdog = undefined;
      failAll('RPC client closed');
      await connection.close();
      channel = undefined;
      model = undefined;
    },
  };
}
