import { rpcQueueName } from '@spam-check/amqp-rpc';
import { amqpUrl, runQueueEnv } from '@spam-check/test-support';
import { connect } from 'amqplib';
import { configSchema, loadServiceConfig } from '../../../src/config';
import { webhookQueueNames } from '../../../src/data-access/webhook-queue-amqp';
import { retryDelays } from '../../../src/domain/webhook-retry';

type Env = Record<string, string | undefined>;

/** The variables that name the queues; their defaults are shared by every stack on a broker. */
const NAMING = ['EMAIL_RPC_QUEUE', 'TEXT_RPC_QUEUE', 'WEBHOOK_QUEUE'] as const;

/**
 * Every queue a gateway started with `env` declares on RabbitMQ, named as its configuration names them: the
 * detectors' RPC queues (which the detectors declare too) and its webhook queues (work, dead letters, one
 * delay queue per retry wait).
 */
function gatewayQueues(env: Env): string[] {
  const config = loadServiceConfig(env);
  return [
    ...[config.EMAIL_RPC_QUEUE, config.TEXT_RPC_QUEUE].map((queue) =>
      rpcQueueName(queue, config.RPC_QUEUE_TYPE),
    ),
    ...webhookQueueNames(config.webhooks.queue, retryDelays(config.webhooks.retry)).all,
  ];
}

/**
 * Deletes from the shared RabbitMQ the queues of a test's stack (`gatewayQueues`), for its `afterAll`, so that
 * a test run leaves none behind. A stack on the shared broker names its own queues: the default names belong
 * to whoever else runs there, so an `env` that leaves one unset is refused.
 */
export async function removeStackQueues(env: Env): Promise<void> {
  const shared = NAMING.filter(
    (name) => env[name] === undefined || env[name] === configSchema.shape[name].parse(undefined),
  );
  if (shared.length > 0)
    throw new Error(`removeStackQueues: ${shared.join(', ')} left at the default name shared by every stack`);
  const connection = await connect(amqpUrl());
  try {
    const channel = await connection.createChannel();
    for (const queue of gatewayQueues(env)) await channel.deleteQueue(queue);
  } finally {
    await connection.close();
  }
}

/** `removeStackQueues` for a stack whose queues are named by `runQueueEnv(prefix)` (as `sharedStackEnv` does). */
export function removeRunQueues(prefix: string): Promise<void> {
  return removeStackQueues(runQueueEnv(prefix));
}
