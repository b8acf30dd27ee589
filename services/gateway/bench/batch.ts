import { median, startStack, SELF_CONTAINED_ENV } from '@spam-check/process-kit';
import autocannon from 'autocannon';
import { demoToken } from './token';

/**
 * Batches against single calls through the full stack (about 1 min, 127.0.0.1 only): the four services as
 * processes (embedded mode, DNS off, no rate limit in the way), autocannon here. At the same number of
 * connections, closed loops of POST /api/v1/spam/mail (one address each) and of POST
 * /api/v1/spam/mail/batch (1,000 distinct addresses each) alternate ROUNDS times; the median round of each
 * counts. The figure is addresses per second: requests per second for single calls, 1,000 times that for
 * batches. Aim: batches at least 5 times the single calls.
 */
const ROUNDS = 3;
const ROUND_S = 6;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const BATCH = 1000;

async function addressesPerSecond(url: string, headers: Record<string, string>, body: string, per: number) {
  const result = await autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
    connections: CONNECTIONS,
    duration: ROUND_S,
  });
  const failed = result.errors + result.non2xx + result.timeouts;
  if (failed > 0) throw new Error(`${url}: ${failed} failed requests`);
  return Math.round(result.requests.average * per);
}

export async function benchBatch(): Promise<void> {
  const stack = await startStack({
    ...SELF_CONTAINED_ENV,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_REQUESTS: '0',
  });
  try {
    const headers = { authorization: `Bearer ${await demoToken(stack.gateway)}` };
    const single = JSON.stringify({ email: 'anna.schmidt@example.org' });
    const batch = JSON.stringify({
      emails: Array.from({ length: BATCH }, (_, i) => `user.${i}@example${i % 50}.org`),
    });
    const singleUrl = `${stack.gateway}/api/v1/spam/mail`;
    const batchUrl = `${stack.gateway}/api/v1/spam/mail/batch`;
    await addressesPerSecond(singleUrl, headers, single, 1);
    await addressesPerSecond(batchUrl, headers, batch, BATCH);
    const singles: number[] = [];
    const batches: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      singles.push(await addressesPerSecond(singleUrl, headers, single, 1));
      batches.push(await addressesPerSecond(batchUrl, headers, batch, BATCH));
      console.log(
        `round ${round + 1}: single ${singles.at(-1)} addresses/s, batch ${batches.at(-1)} addresses/s`,
      );
    }
    const ratio = median(batches) / median(singles);
    console.log(
      `${CONNECTIONS} connections, median of ${ROUNDS} rounds of ${ROUND_S} s: single calls ${median(singles)} ` +
        `addresses/s, batches of ${BATCH} ${median(batches)} addresses/s: ${ratio.toFixed(1)}x (aim: 5x)`,
    );
  } finally {
    await stack.stop();
  }
}
