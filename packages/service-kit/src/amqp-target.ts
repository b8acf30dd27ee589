import { z } from 'zod';
import { optionalCommaList } from './comma-list';

/** The queue type of the RPC queues: quorum (replicated, survives a node loss) or classic (one node). */
const RPC_QUEUE_TYPES = ['quorum', 'classic'] as const;

/**
 * `AMQP_URL`: one broker URL, or several separated by commas (the nodes of one RabbitMQ cluster), tried in
 * turn at start and at every reconnect. Each is an `amqp:` or `amqps:` URL with its own credentials; a comma
 * inside a password is written `%2C`.
 */
const amqpUrls = () =>
  optionalCommaList(
    (item) => URL.canParse(item) && /^amqps?:$/.test(new URL(item).protocol),
    (bad, items) =>
      `must be amqp:// or amqps:// URLs separated by commas; ${items.length === 0 ? 'got none' : `${bad.length} of ${items.length} are not`}`,
  );

/** Where RabbitMQ is and which type the RPC queues have; the gateway and both detectors must agree on both. */
export const amqpConfigShape = {
  AMQP_URL: amqpUrls(),
  RPC_QUEUE_TYPE: z.enum(RPC_QUEUE_TYPES).default('quorum'),
};
