import { runBenches } from '@spam-check/process-kit';
import { benchBatch } from './batch';
import { benchFullStack } from './full-stack';
import { benchReviewList } from './review-list';

/**
 * Gateway bench (about 3.5 min, 127.0.0.1 only): `pnpm --filter @spam-check/gateway bench [name]`.
 * - `full-stack`: the full stack against a direct detector call, throughput and added latency;
 * - `batch`: batches against single calls through the full stack;
 * - `review-list`: the review list's first page for a client with 100,000 checks, and Redis bytes per check.
 */
void runBenches({ 'full-stack': benchFullStack, batch: benchBatch, 'review-list': benchReviewList });
