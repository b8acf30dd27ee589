import { rpcQueueName } from '../../../packages/amqp-rpc/src';
import { amqpUrl } from '@spam-check/test-support';
import { connect } from 'amqplib';

/** Deletes a run's RPC queues (quorum queues, as the stack declares them) from the shared RabbitMQ. */
export async function deleteRunQueues(queues: Record<string, string>): Promise<void> {
  const connection = await connect(amqpUrl());
  try {
    const channel = await connection.createChannel();
    for (const queue of Object.values(queues)) await channel.deleteQueue(rpcQueueName(queue, 'quorum'));
  } finally {
    await connection.close();
  }
}
