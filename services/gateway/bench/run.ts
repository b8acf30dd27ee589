import { runBenches } from '@spam-check/process-kit';
import { benchBatch } from './batch';
import { benchFullStack } from './full-stack';
import { benchReviewList } from './review-list';
import { benchWebhooks } from './webhooks';

/**
 * Gateway bench (about 3.5 min, 127.0.0.1 only): `pnpm --filter @spam-check/gateway bench [name]`.
 * - `full-stack`: the full stack against a direct detector call, throughput and added latency;
 * - `batch`: batches against single calls through the full stack;
 * - `webhooks`: a check's p50 with two webhooks against one without (with Redis and RabbitMQ);
 * - `review-list`: the review list's first page for a client with 100,000 checks, and Redis bytes per check.
 */
void runBenches({
  'full-stack': benchFullStack,
  batch: benchBatch,
  webhooks: benchWebhooks,
  'review-list': benchReviewList,
});
