import { runBenches } from '@spam-check/process-kit';
import { benchBatch } from './batch';
import { benchFullStack } from './full-stack';

/**
 * Gateway bench (about 2 min, 127.0.0.1 only): `pnpm --filter @spam-check/gateway bench [name]`.
 * - `full-stack`: the full stack against a direct detector call, throughput and added latency;
 * - `batch`: batches against single calls through the full stack.
 */
void runBenches({ 'full-stack': benchFullStack, batch: benchBatch });
