import { randomUUID } from 'node:crypto';
import type { Channel, ChannelModel, ConsumeMessage, Message } from 'amqplib';
import { createManagedConnection } from './connection';
import { RpcRemoteError, RpcTimeoutError, RpcUnavailableError } from './errors';
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

/**
 * RPC client over one connection and one channel. The reply consumer (noAck, direct reply-to) is in place
 * before the channel is used to publish; replies are matched to calls by correlation id.
 */
export function createRpcClient(options: RpcClientOptions): RpcClient {
  const log = options.logger.child({ component: 'amqp-rpc-client' });
  const reconnectWaitMs = options.reconnectWaitMs ?? 1000;
  const pending = new Map<string, PendingCall>();
  let channel: Channel | undefined;
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
    for (const correlationId of [...pending.keys()]) {
      settle(correlationId, (call) => call.reject(new RpcUnavailableError(reason)));
    }
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
    settle(message.properties.correlationId, (call) =>
      call.reject(new RpcUnavailableError(`no queue "${call.queue}" to route the request to`)),
    );
  }

  async function setup(model: ChannelModel): Promise<void> {
    const opened = await model.createChannel();
    opened.on('error', (error: Error) => log.warn({ err: error }, 'AMQP channel error'));
    opened.on('return', onReturn);
    opened.once('close', () => {
      if (channel !== opened) return;
      channel = undefined;
      failAll('AMQP channel closed before the reply arrived');
      // Deferred: when the whole connection closes, its own close event comes right after this one.
      setImmediate(() => connection.restart(model, 'reply channel closed'));
    });
    await opened.consume(DIRECT_REPLY_TO, (message) => onReply(message, model), { noAck: true });
    channel = opened;
  }

  const connection = createManagedConnection({
    url: options.url,
    logger: log,
    connectionName: options.connectionName ?? `spam-check-rpc-client-${randomUUID().slice(0, 8)}`,
    connectTimeoutMs: options.connectTimeoutMs ?? 5000,
    reconnect: options.reconnect,
    setup,
  });

  async function publish<T>(queue: string, payload: unknown, callOptions: RpcCallOptions): Promise<T> {
    const deadline = Date.now() + callOptions.timeoutMs;
    if (!channel) await connection.waitUntilConnected(Math.min(callOptions.timeoutMs, reconnectWaitMs));
    const target = channel;
    if (!target) throw new RpcUnavailableError('not connected to the AMQP broker');
    const remainingMs = Math.max(1, Math.ceil(deadline - Date.now()));
    const json = JSON.stringify(payload);
    if (json === undefined) throw new TypeError('RPC payload must be JSON-serialisable');
    const correlationId = randomUUID();

    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          settle(correlationId, (call) =>
            call.reject(new RpcTimeoutError(`no reply from "${queue}" within ${callOptions.timeoutMs} ms`)),
          ),
        remainingMs,
      );
      pending.set(correlationId, { queue, resolve: resolve as (result: unknown) => void, reject, timer });
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
      failAll('RPC client closed');
      await connection.close();
      channel = undefined;
    },
  };
}
