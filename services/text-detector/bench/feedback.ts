/**
 * Issue #12 point 7: text check throughput for a client with FEEDBACK_MAX_REPORTS (10,000) stored reports
 * and a full adjustment (TEXT_FEEDBACK_MAX_WEIGHTS weights), against a client with none; aim ≥ 80 %. In
 * process, LLM off, the same 200 texts for both clients, each text checked by one client right after the
 * other so that the load of the machine hits both alike. Against Redis when REDIS_URL is set (each check
 * then reads the client's version there), else in memory.
 */
import { randomUUID } from 'node:crypto';
import {
  memoryCheckMemory,
  memoryClientMap,
  redisCheckMemory,
  redisClientMap,
} from '@spam-check/service-kit';
import { removeKeysUnder } from '@spam-check/test-support';
import { Redis } from 'ioredis';
import { loadServiceConfig } from '../src/config';
import { loadLanguageDetector } from '../src/data-access/language-detector';
import { readModelFile } from '../src/data-access/model-file';
import { createTextFeedbackStore } from '../src/data-access/text-feedback-store';
import { localChecker } from '../scripts/local-checker';
import { encodeFingerprint, fingerprintOf } from '../src/domain/near-duplicate';
import { mulberry32 } from '../scripts/train/data';

/** 5,000 made-up words, so that the stored reports and the checked texts share words as prose does. */
const WORDS = ((random) =>
  Array.from({ length: 5000 }, () =>
    Array.from({ length: 3 + Math.floor(random() * 7) }, () =>
      String.fromCharCode(97 + Math.floor(random() * 26)),
    ).join(''),
  ))(mulberry32(7));

function sentence(random: () => number, length: number): string {
  return Array.from({ length }, () => WORDS[Math.floor(random() ** 2 * WORDS.length)]).join(' ');
}

export async function benchFeedback(): Promise<void> {
  const prefix = `bench-feedback-${randomUUID().slice(0, 8)}:`;
  const config = loadServiceConfig({ LOG_LEVEL: 'silent', TEXT_LLM_MODE: 'never' });
  const redis = process.env.REDIS_URL ? new Redis(process.env.REDIS_URL) : undefined;
  console.log(redis ? 'client state in Redis (REDIS_URL)' : 'REDIS_URL not set: client state in memory');
  const cap = config.FEEDBACK_MAX_REPORTS + config.TEXT_FEEDBACK_MAX_WEIGHTS;
  const state = redis ? redisClientMap(redis, `${prefix}state:`, cap) : memoryClientMap(cap);
  const model = readModelFile();
  const feedback = createTextFeedbackStore({
    checks: redis ? redisCheckMemory(redis, prefix, 3600) : memoryCheckMemory(3600),
    state,
    texts: memoryClientMap(1),
    calibration: model,
    maxReports: config.FEEDBACK_MAX_REPORTS,
    maxWeights: config.TEXT_FEEDBACK_MAX_WEIGHTS,
    cachedClients: config.TEXT_FEEDBACK_CACHED_CLIENTS,
  });
  const checkText = localChecker(model, await loadLanguageDetector(), feedback);
  const random = mulberry32(12);

  // The stored state of a client that reported FEEDBACK_MAX_REPORTS texts and filled its adjustment,
  // written in bulk (reporting one by one re-reads the whole state after each report).
  const loaded = 'client-with-reports';
  const entries: [string, string][] = [];
  for (let i = 0; i < config.FEEDBACK_MAX_REPORTS; i++) {
    const fingerprint = fingerprintOf(`Report ${i}`, `${sentence(random, 30)} ${i}`);
    entries.push([`r:${encodeFingerprint(fingerprint)}`, i % 2 ? 'spam' : 'ham']);
  }
  for (let i = 0; i < config.TEXT_FEEDBACK_MAX_WEIGHTS; i++)
    entries.push([`w:${Math.floor(random() * (1 << 20))}`, String((random() - 0.5) / 10)]);
  for (let i = 0; i < entries.length; i += 1000) await state.update(loaded, entries.slice(i, i + 1000));

  const texts = Array.from({ length: 200 }, (_, i) => ({
    title: `Message ${i}`,
    body: `${sentence(random, 40)}. ${sentence(random, 25)}!`,
  }));
  // Both clients check the same text one after the other, so that the load of the (shared) machine hits
  // both alike; each check is timed on its own.
  const seconds = { loaded: 0, empty: 0 };
  const time = async (clientId: string, text: (typeof texts)[number]) => {
    const started = process.hrtime.bigint();
    await checkText({ ...text, language: 'en', requestId: 'bench', clientId });
    return Number(process.hrtime.bigint() - started) / 1e9;
  };
  const rounds = 30;
  for (let round = 0; round < rounds + 2; round++)
    for (const text of texts) {
      const empty = await time('client-without-reports', text);
      const loadedTime = await time(loaded, text);
      if (round < 2) continue;
      seconds.empty += empty;
      seconds.loaded += loadedTime;
    }
  const empty = (rounds * texts.length) / seconds.empty;
  const withReports = (rounds * texts.length) / seconds.loaded;
  console.log(`text checks/s, client without reports: ${empty.toFixed(0)}`);
  console.log(
    `text checks/s, client with ${config.FEEDBACK_MAX_REPORTS} reports and ${config.TEXT_FEEDBACK_MAX_WEIGHTS} weights: ${withReports.toFixed(0)} (${((100 * withReports) / empty).toFixed(1)} %, aim ≥ 80 %)`,
  );
  if (redis) {
    await removeKeysUnder(redis, prefix);
    await redis.quit();
  }
}
