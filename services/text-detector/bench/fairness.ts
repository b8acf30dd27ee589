import {
  fairnessLine,
  freePort,
  measureFairness,
  postJson,
  spawnService,
  startTwoClientStack,
  stopService,
  waitForReady,
  type FairnessFigures,
} from '@spam-check/process-kit';
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

/** A round alone (the baseline), then a round next to the heavy client. */
async function pair(
  label: string,
  light: () => Promise<number>,
  heavy: () => Promise<number>,
): Promise<FairnessFigures[]> {
  const alone = await measureFairness({ light, heavy, heavyConcurrency: 0, seconds: 4 });
  console.log(fairnessLine(`${label}, alone`, alone));
  const loaded = await measureFairness({ light, heavy, heavyConcurrency: HEAVY_BATCHES, seconds: SECONDS });
  console.log(fairnessLine(`${label}, next to the heavy client`, loaded));
  return [alone, loaded];
}

/** Against one detector process over HTTP, the client named in `X-Client-Id` as the gateway does. */
async function direct(): Promise<FairnessFigures[]> {
  const detector = spawnService('text-detector', ENV, await freePort());
  try {
    await waitForReady(detector, { timeoutMs: 120_000 });
    for (let i = 0; i < 50; i++)
      await postJson(`${detector.url}/v1/check`, { 'x-client-id': 'light' }, SMALL);
    return await pair(
      'detector',
      () => postJson(`${detector.url}/v1/check`, { 'x-client-id': 'light' }, SMALL),
      () => postJson(`${detector.url}/v1/check/batch`, { 'x-client-id': 'heavy' }, HEAVY_BATCH),
    );
  } finally {
    await stopService(detector);
  }
}

/** Through the gateway (auth, gateway and text detector as processes), each client with its own token. */
async function throughGateway(): Promise<FairnessFigures[]> {
  const { stack, authorization } = await startTwoClientStack(['text-detector'], {
    ...ENV,
    RATE_LIMIT_REQUESTS: '0',
  });
  try {
    const light = { authorization: authorization.light };
    const heavy = { authorization: authorization.heavy };
    for (let i = 0; i < 50; i++) await postJson(`${stack.gateway}/api/v1/spam/text`, light, SMALL);
    return await pair(
      'through the gateway',
      () => postJson(`${stack.gateway}/api/v1/spam/text`, light, SMALL),
      () => postJson(`${stack.gateway}/api/v1/spam/text/batch`, heavy, HEAVY_BATCH),
    );
  } finally {
    await stack.stop();
  }
}

/**
 * Issue #29 D: another client's small text check while one client keeps 5 batches of 80 texts of 100,000
 * characters running at once, with 1,000 long operator deny terms; the services as their own processes over
 * HTTP, the per-client share at its default. Rounds: against the detector (the client named in
 * `X-Client-Id`), then through the gateway (each client with its own token); each first alone, then next to
 * the heavy client. Aim: the small check's p95 under 100 ms next to the heavy client.
 */
export async function benchFairness(): Promise<void> {
  console.log(
    `fairness: small checks of one client while another keeps ${HEAVY_BATCHES} batches of ${HEAVY_ITEMS} × 100,000 characters running (${SECONDS} s each):`,
  );
  const rounds = [...(await direct()), ...(await throughGateway())];
  if (rounds.some((round) => round.failed > 0)) process.exitCode = 1;
}
