import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { connectClientSettings } from '@spam-check/client-settings';
import { textResultSchema } from '@spam-check/contracts';
import { createLogger } from '@spam-check/service-kit';
import { redisUrl, removeKeysUnder, reportFeedback } from '@spam-check/test-support';
import { Redis } from 'ioredis';
import {
  CONFIGURED_SETTINGS,
  GOLDEN_FILE,
  goldenFileText,
  goldenOf,
  goldenTexts,
  reportOf,
  type GoldenPasses,
  type GoldenText,
} from './golden/cases';
import { check, startDetector, type StartedDetector } from './helpers';

// The verdicts, scores and reasons of a fixed set of texts (./golden/cases.ts) must not change when the
// check's cost does: any difference fails. `GOLDEN_UPDATE=1` rewrites ./golden/expected.json instead, for
// a change that means to change verdicts (the README of ./golden says when).
describe('golden verdicts of the text detector (Redis)', () => {
  const run = randomUUID().slice(0, 8);
  const prefix = `golden-test-${run}:`;
  const ids = { plain: `plain-${run}`, configured: `configured-${run}`, learner: `learner-${run}` };
  const env = {
    REDIS_URL: redisUrl(),
    TEXT_FEEDBACK_PREFIX: `${prefix}feedback:`,
    CLIENT_SETTINGS_PREFIX: `${prefix}settings:`,
    CLIENT_SETTINGS_CHANNEL: `${prefix}settings`,
    PRIVACY_HASH_KEY: `golden-test-key-${run}-0123456789abcdef`,
    // The learner's reports are applied one after the other, not paced.
    TEXT_FEEDBACK_REPORTS_PER_SECOND: '10000',
  };
  const logger = createLogger({ service: 'text-detector-test', level: 'silent' });
  let detector: StartedDetector | undefined;

  afterAll(async () => {
    await detector?.stop();
    const redis = new Redis(redisUrl());
    await removeKeysUnder(redis, prefix).finally(() => redis.quit());
  });

  async function checked(client: string, text: GoldenText) {
    const body = text.context
      ? { title: text.title, body: text.body, context: text.context }
      : { title: text.title, body: text.body };
    const response = await check(detector!.url, body, {
      'x-client-id': client,
      'accept-language': text.lang,
    });
    expect(response.status).toBe(200);
    return textResultSchema.parse(response.body);
  }

  it('when every text is checked by a plain, a configured and a learning client, each answer is the recorded one', async () => {
    const settings = await connectClientSettings({ kind: 'single', url: redisUrl() }, logger, {
      prefix: env.CLIENT_SETTINGS_PREFIX,
      channel: env.CLIENT_SETTINGS_CHANNEL,
    });
    await settings.put(ids.configured, CONFIGURED_SETTINGS);
    await settings.close();
    detector = await startDetector(env);
    const texts = goldenTexts();
    const passes: GoldenPasses = { plain: {}, configured: {}, learner: {}, learnt: {} };
    for (const text of texts) passes.plain[text.id] = goldenOf(await checked(ids.plain, text));
    for (const text of texts) passes.configured[text.id] = goldenOf(await checked(ids.configured, text));
    const checkIds: string[] = [];
    for (const text of texts) {
      const result = await checked(ids.learner, text);
      passes.learner[text.id] = goldenOf(result);
      checkIds.push(result.id);
    }
    for (const [index, text] of texts.entries()) {
      const label = reportOf(index, text);
      if (!label) continue;
      const report = await reportFeedback(detector.url, ids.learner, { check_id: checkIds[index], label });
      expect(report.status).toBe(200);
    }
    for (const text of texts) passes.learnt[text.id] = goldenOf(await checked(ids.learner, text));

    if (process.env.GOLDEN_UPDATE === '1') writeFileSync(GOLDEN_FILE, goldenFileText(passes));
    if (!existsSync(GOLDEN_FILE)) throw new Error(`${GOLDEN_FILE} is missing: run with GOLDEN_UPDATE=1 once`);
    const expected = JSON.parse(readFileSync(GOLDEN_FILE, 'utf8')) as GoldenPasses;
    expect(Object.keys(expected.plain)).toHaveLength(texts.length);
    expect(passes).toEqual(expected);
  }, 300_000);
});
