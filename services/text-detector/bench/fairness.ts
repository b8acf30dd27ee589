import { freePort, percentile, spawnService, stopService, waitForReady } from '@spam-check/process-kit';
import { repeatTo } from './limit-inputs';

const HEAVY_BATCHES = 5;
const HEAVY_ITEMS = 80;
const SECONDS = 12;
const PROSE =
  'Danke für den schönen Artikel über die Stadt und ihre Geschichte, das Wetter war gut und wir kommen ' +
  'gerne wieder. Mehr dazu auf https://example.org/reise und im Forum. ';
const HEAVY_BATCH = JSON.stringify({
  items: Array.from({ length: HEAVY_ITEMS }, (_, i) => ({
    title: `Bericht ${i}`,
    body: repeatTo(PROSE, 100_000),
  })),
});
const SMALL = JSON.stringify({ title: 'Frage', body: 'Hat jemand das neue Update schon installiert?' });
/** Long operator deny terms that never occur: the matching must not cost terms × text length. */
const DENY_TERMS = Array.from({ length: 1000 }, (_, i) => `${'verboten '.repeat(10)}${i}`).join(',');

const post = async (url: string, client: string, body: string) => {
  const answer = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-client-id': client },
    body,
  });
  await answer.arrayBuffer();
  return answer.status;
};

/** One client's small checks, one at a time, while another sends heavy batches, against one detector process. */
async function measure(label: string, charsInFlight: string): Promise<void> {
  const detector = spawnService(
    'text-detector',
    {
      LOG_LEVEL: 'warn',
      TEXT_LLM_MODE: 'never',
      REDIS_URL: undefined,
      AMQP_URL: undefined,
      TEXT_DENY_TERMS: DENY_TERMS,
      TEXT_CLIENT_CHARS_IN_FLIGHT: charsInFlight,
      MAX_BATCH_BODY_BYTES: String(16 * 1024 * 1024),
    },
    await freePort(),
  );
  try {
    await waitForReady(detector, { timeoutMs: 120_000 });
    for (let i = 0; i < 50; i++) await post(`${detector.url}/v1/check`, 'light', SMALL);
    const deadline = Date.now() + SECONDS * 1000;
    let batches = 0;
    let failed = 0;
    const heavy = Array.from({ length: HEAVY_BATCHES }, async () => {
      while (Date.now() < deadline) {
        if ((await post(`${detector.url}/v1/check/batch`, 'heavy', HEAVY_BATCH)) !== 200) failed++;
        batches++;
      }
    });
    const latencies: number[] = [];
    await new Promise((resolve) => setTimeout(resolve, 500));
    while (Date.now() < deadline) {
      const started = performance.now();
      if ((await post(`${detector.url}/v1/check`, 'light', SMALL)) !== 200) failed++;
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await Promise.all(heavy);
    console.log(
      `  ${label.padEnd(44)} small checks ${String(latencies.length).padStart(4)}: p50 ${percentile(latencies, 0.5).toFixed(0)} ms, p95 ${percentile(latencies, 0.95).toFixed(0)} ms, max ${Math.max(...latencies).toFixed(0)} ms; heavy batches done ${batches}, failed requests ${failed}`,
    );
    if (failed > 0) process.exitCode = 1;
  } finally {
    await stopService(detector);
  }
}

/**
 * Issue #29 D: another client's small text check while one client sends 5 concurrent batches of 80 texts of
 * 100,000 characters, with 1,000 long operator deny terms; the detector as its own process over HTTP.
 * Paired in one run: without the per-client share (`TEXT_CLIENT_CHARS_IN_FLIGHT` unbounded) and with the
 * default.
 */
export async function benchFairness(): Promise<void> {
  console.log(
    `fairness: small checks of one client while another sends ${HEAVY_BATCHES} batches of ${HEAVY_ITEMS} × 100,000 characters at once (${SECONDS} s each):`,
  );
  await measure('without the per-client share', String(1_000_000_000));
  await measure('with TEXT_CLIENT_CHARS_IN_FLIGHT (default)', '100000');
}
