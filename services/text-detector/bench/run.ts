import { runBenches } from '@spam-check/process-kit';
import { benchLimits, benchThroughput } from './checks';
import { benchFairness } from './fairness';
import { benchFeedback } from './feedback';
import { benchHttp } from './http';
import { benchLearningClients } from './learning-clients';
import { benchSideBySide } from './side-by-side';

/**
 * Text detector bench, in process, LLM off (about 40 s): `pnpm --filter @spam-check/text-detector bench
 * [name]`.
 * - `throughput`: checks/s and p50/p99 for a 2 KB text on one core;
 * - `limits`: the CPU time of the inputs at the limits;
 * - `http`: the detector's CPU per check and p50 over HTTP, the detector as its own process (about 20 s);
 * - `feedback`: a client with a full store of reports against a client with none;
 * - `fairness`: one client's small checks while another keeps heavy batches running, against the detector
 *   and through the gateway (the services as processes, about 1 min).
 * - `learning`: the detector's RSS with learning clients, and another client's p95 while one reports
 *   at full rate (the detector as a process, client state in Redis: needs REDIS_URL).
 * - `side-by-side`: the stack's CPU per 1,000 text checks through the gateway beside Rspamd's on the same
 *   texts, and where the detector's CPU goes (./side-by-side.ts; `pnpm bench:side-by-side`).
 */
void runBenches({
  throughput: () => benchThroughput(8),
  limits: benchLimits,
  http: benchHttp,
  feedback: benchFeedback,
  fairness: benchFairness,
  learning: benchLearningClients,
  'side-by-side': benchSideBySide,
});
