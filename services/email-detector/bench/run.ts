import { runBenches } from '@spam-check/process-kit';
import { benchFairness } from './fairness';
import { benchHttp } from './http';
import { benchInProcess } from './in-process';

/**
 * E-mail detector bench (127.0.0.1 only): `pnpm --filter @spam-check/email-detector bench [name]`.
 * - `in-process`: checks/s of the domain function with DNS off, on one core;
 * - `http`: HTTP latency p50/p99 of POST /v1/check with a warm DNS cache (see `http.ts`);
 * - `fairness`: one client's mail checks while another keeps heavy batches running (the
 *   services as processes, about 1 min).
 */
void runBenches({
  'in-process': async () => {
    const { checksPerSecond } = await benchInProcess(5);
    console.log(`email-detector in-process (DNS off, 1 core): ${checksPerSecond} checks/s`);
  },
  http: benchHttp,
  fairness: benchFairness,
});
