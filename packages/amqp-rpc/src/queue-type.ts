/** The type of an RPC queue: `quorum` (replicated on the cluster's nodes, survives one lost) or `classic`. */
export type RpcQueueType = 'quorum' | 'classic';

/**
 * The queue a name stands for with a type: the name itself for classic, `<name>.quorum` for quorum. RabbitMQ
 * fixes a queue's type when it is declared and refuses to declare it again with another (PRECONDITION_FAILED),
 * so a stack upgraded from classic queues declares new ones beside the old instead of failing on them; client
 * and server derive the name here, so they always meet on the same queue.
 */
export function rpcQueueName(queue: string, type: RpcQueueType): string {
  return type === 'quorum' ? `${queue}.quorum` : queue;
}

/** What an existing queue of another type or arguments answers a declare with (AMQP reply code 406). */
export function isPreconditionFailed(error: unknown): boolean {
  return (error as { code?: unknown } | undefined)?.code === 406;
}
