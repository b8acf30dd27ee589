import { benchDetectorFairness } from '@spam-check/process-kit';
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
const ENV = {
  LOG_LEVEL: 'warn',
  TEXT_LLM_MODE: 'never',
  REDIS_URL: undefined,
  AMQP_URL: undefined,
  TEXT_DENY_TERMS: DENY_TERMS,
  MAX_BATCH_BODY_BYTES: String(16 * 1024 * 1024),
};

/**
 * Fairness between clients for text: 5 batches of 80 texts of 100,000 characters next to another client's
 * small check, with 1,000 long operator deny terms, the per-client share at its default. Aim: the small
 * check's p95 under 100 ms next to the heavy client.
 */
export async function benchFairness(): Promise<void> {
  console.log(
    `fairness: small checks of one client while another keeps ${HEAVY_BATCHES} batches of ${HEAVY_ITEMS} × 100,000 characters running (${SECONDS} s each):`,
  );
  await benchDetectorFairness({
    service: 'text-detector',
    env: ENV,
    bodies: { small: SMALL, detectorBatch: HEAVY_BATCH, gatewayBatch: HEAVY_BATCH },
    heavyConcurrency: HEAVY_BATCHES,
    seconds: SECONDS,
    warmUp: { small: 50, batches: 0 },
  });
}
