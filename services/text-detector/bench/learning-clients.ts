/**
 * What many learning clients cost the text detector, the detector as its own process with
 * its client state in Redis (REDIS_URL; the bench needs it).
 * - `clients`: RSS of the detector before and after checks by 1,000 clients with 1,000 reports each, in
 *   random order (aim ≤ 400 MB). Two clients report 1,000 made-up texts each through the service's own store
 *   (`createFeedbackStore`, as `POST /v1/feedback` does); the others get a server-side COPY of one of
 *   those two states under their own hash tag (what makes a million reports take seconds, not an hour). Half
 *   the checked texts are near-duplicates of a report (the third read of a check), half are new.
 * - `load`: one client's text checks, one at a time, alone and while a client at the caps reports at full
 *   rate (four reports in flight, each a new text, as fast as the detector answers them: its pace per client,
 *   `TEXT_FEEDBACK_REPORTS_PER_SECOND`, sets the rate); p95 with the load against p95 without (aim ≤ 1.25×),
 *   in alternating rounds so that the machine's own load hits both alike.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import {
  freePort,
  percentile,
  processRssBytes,
  spawnService,
  stopService,
  waitForReady,
  type ServiceProcess,
} from '@spam-check/process-kit';
import { removeKeysUnder } from '@spam-check/test-support';
import { Redis } from 'ioredis';
import { createFeedbackStore } from '../src/compose';
import { loadServiceConfig } from '../src/config';
import { loadLanguageDetector } from '../src/data-access/language-detector';
import { readModelFile } from '../src/data-access/model-file';
import { createTextLearner } from '../src/domain/check-text';
import { localCascade } from '../scripts/local-checker';
import { mulberry32, shuffle } from '../scripts/train/data';
import { sentence } from './feedback';

/**
 * At 1,000 reports a client's state takes about 14 MB of Redis (the band index and the weights at their caps),
 * so 1,000 clients need about 14 GB: BENCH_LEARNING_CLIENTS runs fewer on a smaller Redis.
 */
const CLIENTS = Number(process.env.BENCH_LEARNING_CLIENTS ?? 1000);
const REPORTS = 1000;
/** Clients whose state is learnt report by report; the others copy one of theirs. */
const LEARNT = 2;
const CHECKS = 5000;
const IN_FLIGHT = 8;
const ROUNDS = 3;
const ROUND_SECONDS = 6;

const MB = 1024 * 1024;
const megabytes = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;
const learner = (i: number) => `learner-${i}`;
const reported = (client: number, i: number) => ({
  title: `Report ${client} ${i}`,
  body: `${sentence(mulberry32(client * REPORTS + i), 30)} ${i}`,
});

/**
 * The bench's client: node:http over a keep-alive pool rather than `fetch`, which costs the bench about a
 * millisecond of CPU per request, on a machine whose cores it shares with the detector and Redis.
 */
const agent = new http.Agent({ keepAlive: true });

function post(detector: ServiceProcess, path: string, client: string, body: unknown): Promise<void> {
  const json = JSON.stringify(body);
  const headers = {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(json),
    'x-client-id': client,
  };
  return new Promise((resolve, reject) => {
    const request = http.request(`${detector.url}${path}`, { method: 'POST', agent, headers }, (answer) => {
      answer.resume();
      answer.on('end', () =>
        answer.statusCode === 200 ? resolve() : reject(new Error(`${path} answered ${answer.statusCode}`)),
      );
    });
    request.on('error', reject);
    request.end(json);
  });
}

/** The learnt state of LEARNT clients through the service's store, then copied to the others. */
async function fill(redis: Redis, prefix: string): Promise<void> {
  const config = loadServiceConfig({ LOG_LEVEL: 'silent', TEXT_FEEDBACK_PREFIX: prefix });
  const model = readModelFile();
  const detectLanguage = await loadLanguageDetector();
  const feedback = createFeedbackStore(config, model, redis);
  const learn = createTextLearner({ model, detectLanguage, config: localCascade() });
  await Promise.all(
    Array.from({ length: LEARNT }, async (_, client) => {
      for (let i = 0; i < REPORTS; i++)
        await feedback.reportText(learner(client), learn(reported(client, i)), i % 2 ? 'spam' : 'ham');
    }),
  );
  const keys = new Map<number, string[]>();
  for (let client = 0; client < LEARNT; client++) {
    const found: string[] = [];
    for await (const batch of redis.scanStream({ match: `${prefix}*{${learner(client)}}*`, count: 1000 }))
      found.push(...(batch as string[]));
    keys.set(client, found);
  }
  for (let client = LEARNT; client < CLIENTS; client += 50) {
    const transaction = redis.pipeline();
    for (let other = client; other < Math.min(CLIENTS, client + 50); other++)
      for (const key of keys.get(other % LEARNT) ?? [])
        transaction.copy(key, key.replace(`{${learner(other % LEARNT)}}`, `{${learner(other)}}`));
    await transaction.exec();
  }
}

async function benchClients(detector: ServiceProcess, redis: Redis, prefix: string): Promise<void> {
  const usedMemory = async () => Number(/used_memory:(\d+)/.exec(await redis.info('memory'))?.[1] ?? 0);
  const quiet = { title: 'Frage', body: 'Hat jemand das neue Update schon installiert?' };
  for (let i = 0; i < 200; i++) await post(detector, '/v1/check', 'warm-up', quiet);
  const before = processRssBytes(detector.child.pid ?? 0);
  const redisBefore = await usedMemory();
  const started = performance.now();
  await fill(redis, prefix);
  console.log(
    `  ${CLIENTS} clients × ${REPORTS} reports learnt in ${((performance.now() - started) / 1000).toFixed(0)} s; ` +
      `Redis grew by ${megabytes((await usedMemory()) - redisBefore)}`,
  );
  const random = mulberry32(27);
  const order = shuffle(
    Array.from({ length: CHECKS }, (_, i) => i % CLIENTS),
    random,
  );
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, processRssBytes(detector.child.pid ?? 0));
  }, 100);
  const checkStarted = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < order.length) {
        const client = order[next++] as number;
        const text =
          next % 2 === 0
            ? reported(client % LEARNT, Math.floor(random() * REPORTS))
            : { title: `Message ${next}`, body: sentence(random, 40) };
        await post(detector, '/v1/check', learner(client), text);
      }
    }),
  );
  clearInterval(sampler);
  const seconds = (performance.now() - checkStarted) / 1000;
  const after = processRssBytes(detector.child.pid ?? 0);
  peak = Math.max(peak, after);
  console.log(
    `  detector RSS: ${megabytes(before)} before, ${megabytes(after)} after ${CHECKS} checks by ${CLIENTS} ` +
      `learning clients in random order (peak ${megabytes(peak)}; aim ≤ 400 MB); ${(CHECKS / seconds).toFixed(0)} checks/s`,
  );
}

async function benchLoad(detector: ServiceProcess): Promise<void> {
  const random = mulberry32(28);
  const texts = Array.from({ length: 50 }, (_, i) => ({ title: `Frage ${i}`, body: sentence(random, 25) }));
  const timedChecks = async (until: number, latencies: number[]) => {
    let i = 0;
    while (performance.now() < until) {
      const started = performance.now();
      await post(detector, '/v1/check', 'quiet-client', texts[i++ % texts.length]);
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  const alone: number[] = [];
  const loaded: number[] = [];
  let reports = 0;
  for (let round = 0; round < ROUNDS; round++) {
    await timedChecks(performance.now() + ROUND_SECONDS * 1000, alone);
    const until = performance.now() + ROUND_SECONDS * 1000;
    const reporting = Array.from({ length: 4 }, async (_, lane) => {
      while (performance.now() < until) {
        const text = { title: `Neu ${round} ${lane} ${reports}`, body: sentence(random, 30) };
        await post(detector, '/v1/feedback', learner(0), { ...text, label: reports % 2 ? 'spam' : 'ham' });
        reports++;
      }
    });
    await Promise.all([timedChecks(until, loaded), ...reporting]);
  }
  const p95 = { alone: percentile(alone, 0.95), loaded: percentile(loaded, 0.95) };
  console.log(
    `  another client's text check p95: ${p95.alone.toFixed(1)} ms alone, ${p95.loaded.toFixed(1)} ms while a ` +
      `client at the caps reports at full rate (${(reports / (ROUNDS * ROUND_SECONDS)).toFixed(0)} reports/s): ` +
      `${(p95.loaded / p95.alone).toFixed(2)}× (aim ≤ 1.25×)`,
  );
}

export async function benchLearningClients(): Promise<void> {
  if (!process.env.REDIS_URL) {
    console.log('learning clients: needs REDIS_URL (the learnt state lives in Redis); not run');
    process.exitCode = 1;
    return;
  }
  const prefix = `bench-learning-${randomUUID().slice(0, 8)}:`;
  const redis = new Redis(process.env.REDIS_URL);
  const detector = spawnService(
    'text-detector',
    { LOG_LEVEL: 'warn', TEXT_LLM_MODE: 'never', AMQP_URL: undefined, TEXT_FEEDBACK_PREFIX: prefix },
    await freePort(),
  );
  try {
    await waitForReady(detector, { timeoutMs: 120_000 });
    await benchClients(detector, redis, prefix);
    await benchLoad(detector);
  } finally {
    agent.destroy();
    await stopService(detector);
    await removeKeysUnder(redis, prefix);
    await redis.quit();
  }
}
