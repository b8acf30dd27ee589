import { randomUUID } from 'node:crypto';
import type { ChannelModel, ConfirmChannel, ConsumeMessage } from 'amqplib';
import type { Logger } from 'pino';
import { createManagedConnection, DEFAULT_HEARTBEAT_SECONDS } from './connection';
import { headersAsStrings } from './headers';
import { isPreconditionFailed, rpcQueueName, type RpcQueueType } from './queue-type';
import { encodeReply, INTERNAL_PROBLEM, problemFromError, type RpcReply } from './reply';
import type { RpcServer, RpcServerOptions } from './types';

const MALFORMED = Symbol('malformed');

function parsePayload(content: Buffer): unknown {
  try {
    return JSON.parse(content.toString('utf8'));
  } catch {
    return MALFORMED;
  }
}

/** The reply to one request: the handler's result, the problem it threw, or an internal problem. */
async function replyFor(
  handler: RpcServerOptions['handler'],
  payload: unknown,
  headers: Record<string, string>,
  log: Logger,
  correlationId: string,
): Promise<RpcReply> {
  try {
    return { ok: true, result: await handler(payload, headers) };
  } catch (error) {
    const problem = problemFromError(error);
    if (problem) return { ok: false, problem };
    log.error({ err: error, correlationId }, 'RPC handler failed');
    return { ok: false, problem: INTERNAL_PROBLEM };
  }
}

/**
 * Publishes the reply and, once the broker has confirmed it, acks the delivery (or rejects it without requeue).
 * A reply the broker refuses is logged and its request rejected; on a channel that is gone nothing is settled
 * and the broker requeues the unacked delivery for the next consumer.
 */
function sendReply(
  channel: ConfirmChannel,
  message: ConsumeMessage,
  envelope: RpcReply,
  ack: boolean,
  log: Logger,
): Promise<void> {
  const { correlationId, replyTo } = message.properties as { correlationId: string; replyTo: string };
  return new Promise<void>((resolve) => {
    const settle = (confirmError: unknown) => {
      try {
        if (confirmError) log.warn({ correlationId }, 'RPC reply not confirmed by the broker');
        if (ack && !confirmError) channel.ack(message);
        else channel.reject(message, false);
      } catch (error) {
        log.warn({ err: error, correlationId }, 'RPC delivery not settled; the broker will redeliver it');
      }
      resolve();
    };
    try {
      channel.sendToQueue(
        replyTo,
        encodeReply(envelope),
        { correlationId, contentType: 'application/json' },
        settle,
      );
    } catch (error) {
      // The channel is gone: the broker requeues the unacked delivery for the next consumer.
      log.warn({ err: error, correlationId }, 'RPC reply not sent; the broker will redeliver the request');
      resolve();
    }
  });
}

/** Deliveries being handled, so that `close()` can wait for them, at most `drainTimeoutMs`. */
function inFlightDeliveries(log: Logger, drainTimeoutMs: number) {
  const inFlight = new Set<Promise<void>>();
  return {
    track(work: Promise<void>): void {
      const tracked = work.catch((error: unknown) => log.error({ err: error }, 'RPC delivery not settled'));
      inFlight.add(tracked);
      void tracked.finally(() => inFlight.delete(tracked));
    },
    async drain(): Promise<void> {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          log.warn(
            { running: inFlight.size },
            'RPC handlers still running at close; their requests are requeued',
          );
          resolve();
        }, drainTimeoutMs);
      });
      await Promise.race([Promise.allSettled([...inFlight]), timeout]);
      clearTimeout(timer);
    },
  };
}

/**
 * Declares the queue with its type. Durable: transient non-exclusive queues are deprecated (refused by default
 * from RabbitMQ 4.3); the requests themselves stay transient and expire. A queue of that name declared with
 * another type or arguments (by hand) is refused by the broker: said once per attempt, naming the queue and the
 * way out, and the connection retries with its backoff.
 */
async function declareQueue(channel: ConfirmChannel, queue: string, type: RpcQueueType, log: Logger) {
  try {
    await channel.assertQueue(queue, { durable: true, arguments: { 'x-queue-type': type } });
  } catch (error) {
    if (isPreconditionFailed(error))
      log.error(
        { err: error },
        `RPC queue "${queue}" exists with another type or arguments than a durable ${type} queue: delete it ` +
          `(rabbitmqctl delete_queue ${queue}) or set RPC_QUEUE_TYPE to its type; retrying`,
      );
    throw error;
  }
}

/** Unacknowledged deliveries at a time: a positive integer, 10 unless given. */
function prefetchOf(options: RpcServerOptions): number {
  const prefetch = options.prefetch ?? 10;
  if (!Number.isInteger(prefetch) || prefetch < 1)
    throw new RangeError('prefetch must be a positive integer');
  return prefetch;
}

/**
 * Consumes one queue with `prefetch` unacknowledged deliveries. Every delivery is settled exactly once:
 * acked after its reply is published (also when the handler threw: the reply then carries the problem),
 * rejected without requeue when it cannot be processed (not JSON, no reply address). Nothing is requeued
 * by this code; the broker redelivers only what was unacked when a connection dropped.
 */
export function createRpcServer(options: RpcServerOptions): RpcServer {
  const queueType: RpcQueueType = options.queueType ?? 'quorum';
  const queue = rpcQueueName(options.queue, queueType);
  const log = options.logger.child({ component: 'amqp-rpc-server', queue });
  const prefetch = prefetchOf(options);
  const inFlight = inFlightDeliveries(log, options.drainTimeoutMs ?? 10_000);
  let consumer: { channel: ConfirmChannel; tag: string } | undefined;
  let closed = false;

  async function handle(channel: ConfirmChannel, message: ConsumeMessage): Promise<void> {
    const { correlationId, replyTo } = message.properties as { correlationId?: unknown; replyTo?: unknown };
    if (typeof replyTo !== 'string' || !replyTo || typeof correlationId !== 'string' || !correlationId) {
      log.warn({ correlationId }, 'RPC request without replyTo or correlationId; rejected');
      channel.reject(message, false);
      return;
    }
    const payload = parsePayload(message.content);
    if (payload === MALFORMED) {
      log.warn({ correlationId, bytes: message.content.length }, 'RPC request is not JSON; rejected');
      const problem = { ...INTERNAL_PROBLEM, detail: 'malformed RPC request' };
      await sendReply(channel, message, { ok: false, problem }, false, log);
      return;
    }
    const headers = headersAsStrings(message.properties.headers);
    const envelope = await replyFor(options.handler, payload, headers, log, correlationId);
    await sendReply(channel, message, envelope, true, log);
  }

  async function setup(model: ChannelModel): Promise<void> {
    const channel = await model.createConfirmChannel();
    channel.on('error', (error: Error) => log.warn({ err: error }, 'AMQP channel error'));
    channel.once('close', () => {
      if (consumer?.channel !== channel) return;
      consumer = undefined;
      setImmediate(() => connection.restart(model, 'consumer channel closed'));
    });
    await channel.prefetch(prefetch);
    await declareQueue(channel, queue, queueType, log);
    const { consumerTag } = await channel.consume(
      queue,
      (message) => {
        if (message) inFlight.track(handle(channel, message));
        else connection.restart(model, 'consumer cancelled by the broker (queue deleted?)');
      },
      { noAck: false },
    );
    consumer = { channel, tag: consumerTag };
    log.info({ prefetch }, 'RPC server consuming');
  }

  const connection = createManagedConnection({
    url: options.url,
    logger: log,
    connectionName: options.connectionName ?? `spam-check-rpc-server-${randomUUID().slice(0, 8)}`,
    connectTimeoutMs: options.connectTimeoutMs ?? 5000,
    heartbeatSeconds: options.heartbeatSeconds ?? DEFAULT_HEARTBEAT_SECONDS,
    reconnect: options.reconnect,
    setup,
  });

  return {
    ready: () => connection.waitUntilConnected(options.readyTimeoutMs ?? 5000),
    isConnected: () => consumer !== undefined && connection.isConnected(),
    async close() {
      if (closed) return;
      closed = true;
      const active = consumer;
      if (active) await active.channel.cancel(active.tag).catch(() => undefined);
      await inFlight.drain();
      // Closing the channel first flushes replies and acks still buffered in amqplib; a bare connection
      // close would discard them.
      const draining = consumer;
      consumer = undefined;
      await draining?.channel.close().catch(() => undefined);
      await connection.close();
    },
  };
}
