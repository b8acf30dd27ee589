/**
 * What learning costs a client: text check throughput for a client with FEEDBACK_MAX_REPORTS
 * (10,000) reports, each learnt as the service learns it, against a client with none; aim ≥ 80 %. In
 * process, LLM off, the same 200 texts for both clients, each text checked by one client right after the
 * other so that the load of the machine hits both alike. Against Redis when REDIS_URL is set, else in
 * memory; the store is the service's own (`createFeedbackStore`).
 */
import { randomUUID } from 'node:crypto';
import { removeKeysUnder } from '@spam-check/test-support';
import { Redis } from 'ioredis';
import { createFeedbackStore } from '../src/compose';
import { loadServiceConfig } from '../src/config';
import { loadLanguageDetector } from '../src/data-access/language-detector';
import { readModelFile } from '../src/data-access/model-file';
import { createTextLearner } from '../src/domain/check-text';
import { localCascade, localChecker } from '../scripts/local-checker';
import { mulberry32 } from '../scripts/train/data';

/** 5,000 made-up words, so that the stored reports and the checked texts share words as prose does. */
const WORDS = ((random) =>
  Array.from({ length: 5000 }, () =>
    Array.from({ length: 3 + Math.floor(random() * 7) }, () =>
      String.fromCharCode(97 + Math.floor(random() * 26)),
    ).join(''),
  ))(mulberry32(7));

export function sentence(random: () => number, length: number): string {
  return Array.from({ length }, () => WORDS[Math.floor(random() ** 2 * WORDS.length)]).join(' ');
}

export async function benchFeedback(): Promise<void> {
  const prefix = `bench-feedback-${randomUUID().slice(0, 8)}:`;
  const config = loadServiceConfig({
    LOG_LEVEL: 'silent',
    TEXT_LLM_MODE: 'never',
    TEXT_FEEDBACK_PREFIX: prefix,
  });
  const redis = process.env.REDIS_URL ? new Redis(process.env.REDIS_URL) : undefined;
  console.log(redis ? 'client state in Redis (REDIS_URL)' : 'REDIS_URL not set: client state in memory');
  const model = readModelFile();
  const detectLanguage = await loadLanguageDetector();
  const feedback = createFeedbackStore(config, model, redis);
  const checkText = localChecker(model, detectLanguage, feedback);
  const learn = createTextLearner({
    model,
    detectLanguage,
    config: localCascade(),
  });
  const random = mulberry32(12);

  // A client that reported FEEDBACK_MAX_REPORTS texts, each learnt as the service learns it.
  const loaded = 'client-with-reports';
  for (let i = 0; i < config.FEEDBACK_MAX_REPORTS; i++) {
    const text = { title: `Report ${i}`, body: `${sentence(random, 30)} ${i}` };
    await feedback.reportText(loaded, learn(text), i % 2 ? 'spam' : 'ham');
  }

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
    `text checks/s, client with ${config.FEEDBACK_MAX_REPORTS} reports: ${withReports.toFixed(0)} (${((100 * withReports) / empty).toFixed(1)} %, aim ≥ 80 %)`,
  );
  if (redis) {
    await removeKeysUnder(redis, prefix);
    await redis.quit();
  }
}
