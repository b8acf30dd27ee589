import { createManagedConnection } from '@spam-check/amqp-rpc';
import type { Logger } from '@spam-check/service-kit';
import type { Channel, ChannelModel, ConfirmChannel, ConsumeMessage } from 'amqplib';
import type { Disposition, JobHandler, WebhookJob, WebhookQueue } from './webhook-queue';

/** How long a new delivery waits for a broker that is away before it is given up and logged as lost. */
const PUBLISH_WAIT_MS = 60_000;
/** A job redelivered this often without an answer (a worker dying on it) goes to the dead-letter queue. */
const DELIVERY_LIMIT = 20;

/** The queues of the deliveries: the work queue, its dead letters, and one delay queue per retry wait. */
export function webhookQueueNames(queue: string, delays: readonly number[]) {
  return {
    work: queue,
    dead: `${queue}.dead`,
    delay: (delayMs: number) => `${queue}.delay.${delayMs}`,
    all: [queue, `${queue}.dead`, ...delays.map((delayMs) => `${queue}.delay.${delayMs}`)],
  };
}

type Names = ReturnType<typeof webhookQueueNames>;

/**
 * Deliveries over RabbitMQ, durable across a broker restart:
 * - a quorum work queue, persistent messages published with confirms, consumed with acks and a prefetch
 *   of `concurrency`; a job given up, unreadable, or redelivered too often is dead-lettered to `<queue>.dead`;
 * - a retry goes to the delay queue of its wait (quorum, a queue-wide TTL, dead-lettered back to the work
 *   queue at least once), and the job is acked only once the broker has confirmed it there. One TTL per
 *   queue keeps each queue first in, first out, so no message waits behind a longer one.
 */
export function amqpWebhookQueue(options: {
  /** The brokers of AMQP_URL, tried in turn. */
  url: readonly string[];
  queue: string;
  delays: readonly number[];
  concurrency: number;
  logger: Logger;
}): WebhookQueue {
  const log = options.logger;
  const names = webhookQueueNames(options.queue, options.delays);
  let channels: { publish: ConfirmChannel; consume: Channel } | undefined;
  let handler: JobHandler | undefined;

  const send = async (queue: string, job: WebhookJob): Promise<void> => {
    await connection.waitUntilConnected(PUBLISH_WAIT_MS);
    if (!channels) throw new Error('no webhook publish channel');
    await confirmedSend(channels.publish, queue, job);
  };
  const consumeOn = async (channel: Channel) => {
    const handle = handler;
    if (!handle) return;
    await channel.consume(names.work, (message) => {
      if (message) void settle({ channel, message, handle, send, names, log });
    });
  };
  const connection = createManagedConnection({
    url: options.url,
    logger: log,
    connectionName: 'gateway webhooks',
    connectTimeoutMs: 5000,
    heartbeatSeconds: 5,
    setup: async (model: ChannelModel) => {
      const publish = await model.createConfirmChannel();
      const consume = await model.createChannel();
      for (const channel of [publish, consume]) {
        channel.on('error', (error: Error) => log.warn({ err: error }, 'webhook queue channel error'));
        channel.on('close', () => connection.restart(model, 'webhook queue channel closed'));
      }
      await declareTopology(publish, names, options.delays);
      await consume.prefetch(options.concurrency);
      await consumeOn(consume);
      channels = { publish, consume };
    },
  });

  return {
    kind: 'rabbitmq',
    publish: (job) => untilDeadline(() => send(names.work, job), PUBLISH_WAIT_MS),
    consume(next) {
      handler = next;
      if (channels) void consumeOn(channels.consume);
    },
    connected: () => connection.isConnected(),
    close: () => connection.close(),
  };
}

/** Hands a message to the worker and does what it says: ack, retry through a delay queue, or dead-letter. */
async function settle(context: {
  channel: Channel;
  message: ConsumeMessage;
  handle: JobHandler;
  send: (queue: string, job: WebhookJob) => Promise<void>;
  names: Names;
  log: Logger;
}): Promise<void> {
  const { channel, message, log } = context;
  let disposition: Disposition;
  try {
    disposition = await context.handle(JSON.parse(message.content.toString('utf8')) as WebhookJob);
  } catch (error) {
    log.error({ err: error }, 'webhook job unreadable; dead-lettered');
    disposition = { kind: 'given_up' };
  }
  try {
    if (disposition.kind === 'later')
      await context.send(context.names.delay(disposition.delayMs), disposition.job);
    if (disposition.kind === 'given_up') channel.nack(message, false, false);
    else channel.ack(message);
  } catch (error) {
    // Unacked, the job comes back when the channel does: at least once, with the same webhook-id.
    log.warn({ err: error }, 'webhook job not settled; the broker delivers it again');
  }
}

/** Sends a persistent job; resolves once the broker has confirmed it. */
function confirmedSend(channel: ConfirmChannel, queue: string, job: WebhookJob): Promise<void> {
  return new Promise<void>((resolve, reject) =>
    channel.sendToQueue(
      queue,
      Buffer.from(JSON.stringify(job)),
      { persistent: true, messageId: job.delivery_id, contentType: 'application/json' },
      (error: unknown) =>
        error ? reject(new Error('not confirmed by the broker', { cause: error })) : resolve(),
    ),
  );
}

/** Runs `attempt` until it succeeds, again after a short pause while within `waitMs`; else its last error. */
async function untilDeadline(attempt: () => Promise<void>, waitMs: number): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

async function declareTopology(channel: Channel, names: Names, delays: readonly number[]): Promise<void> {
  await channel.assertQueue(names.dead, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
  await channel.assertQueue(names.work, {
    durable: true,
    arguments: {
      'x-queue-type': 'quorum',
      'x-dead-letter-exchange': '',
      'x-dead-letter-routing-key': names.dead,
      'x-delivery-limit': DELIVERY_LIMIT,
    },
  });
  for (const delayMs of delays)
    await channel.assertQueue(names.delay(delayMs), {
      durable: true,
      arguments: {
        'x-queue-type': 'quorum',
        'x-message-ttl': delayMs,
        'x-dead-letter-exchange': '',
        'x-dead-letter-routing-key': names.work,
        'x-dead-letter-strategy': 'at-least-once',
        'x-overflow': 'reject-publish',
      },
    });
}
