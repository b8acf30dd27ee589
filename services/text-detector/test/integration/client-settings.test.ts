import { randomUUID } from 'node:crypto';
import { connectClientSettings, type ClientSettingsStore } from '@spam-check/client-settings';
import { textResultSchema } from '@spam-check/contracts';
import { createLogger } from '@spam-check/service-kit';
import { redisUrl, removeKeysUnder } from '@spam-check/test-support';
import { Redis } from 'ioredis';
import { FakeOpenAi } from './fake-openai';
import { check, startDetector, type StartedDetector, startRpcDetector, type RpcDetector } from './helpers';

// A client's text settings (DESIGN.md §6.3) are applied by the text detector for the client the gateway
// names, over HTTP (X-Client-Id) and RPC (x-client-id); other clients keep the operator's configuration.
describe('per-client text settings', () => {
  const run = randomUUID().slice(0, 8);
  const ids = {
    never: `never-${run}`,
    strict: `strict-${run}`,
    terms: `terms-${run}`,
    plain: `plain-${run}`,
  };
  const queue = `test.text-settings.${run}`;
  const logger = createLogger({ service: 'text-detector-test', level: 'silent' });
  const fake = new FakeOpenAi();
  let settings: ClientSettingsStore;
  let detector: StartedDetector;
  let rpc: RpcDetector;

  beforeAll(async () => {
    const env = {
      LOG_LEVEL: 'silent',
      TEXT_LLM_MODE: 'always',
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: await fake.start(),
      TEXT_LLM_CACHE_PREFIX: `test:text-settings:${run}:`,
      TEXT_FEEDBACK_PREFIX: `test:text-settings:${run}:feedback:`,
      REDIS_URL: redisUrl(),
      TEXT_RPC_QUEUE: queue,
      CLIENT_SETTINGS_PREFIX: `test:text-settings:${run}:settings:`,
      CLIENT_SETTINGS_CHANNEL: `test:text-settings:${run}:settings`,
    };
    settings = await connectClientSettings({ kind: 'single', url: redisUrl() }, logger, {
      prefix: env.CLIENT_SETTINGS_PREFIX,
      channel: env.CLIENT_SETTINGS_CHANNEL,
    });
    await settings.put(ids.never, { text: { llm_mode: 'never' } });
    await settings.put(ids.strict, {
      text: { llm_mode: 'never', spam_threshold: 0, suspicious_threshold: 0 },
    });
    await settings.put(ids.terms, { text: { deny_terms: [`Quxlor-${run}`] } });
    detector = await startDetector(env);
    rpc = await startRpcDetector({ ...env, TEXT_RPC_PREFETCH: '1' });
  });

  afterAll(async () => {
    await rpc?.stop();
    await detector?.stop();
    for (const id of Object.values(ids)) await settings.remove(id);
    await settings.close();
    await fake.stop();
    const redis = new Redis(redisUrl());
    await removeKeysUnder(redis, `test:text-settings:${run}:`).finally(() => redis.quit());
  });
  beforeEach(() => {
    fake.requests = [];
    fake.scenario = 'good';
  });

  // The id keeps each text apart in the LLM cache; the sentence around it is long enough that the id's
  // unknown chunks never make the text unfamiliar to the model (under half its words known), which would
  // hold its score below the client's spam threshold and make the checks below depend on the random id.
  const text = () => ({
    title: 'Gardening',
    body: `Notes ${randomUUID()} on watering tomatoes in summer: water them early in the morning, at the roots, and cover the beds so the soil stays moist for the whole day.`,
  });
  const overHttp = async (clientId: string | undefined, body = text()) =>
    textResultSchema.parse(
      (await check(detector.url, body, clientId ? { 'x-client-id': clientId } : {})).body,
    );
  const overRpc = async (clientId: string, body = text()) =>
    textResultSchema.parse(
      await rpc.client.call(queue, body, { timeoutMs: 5000, headers: { 'x-client-id': clientId } }),
    );

  it('when a client sets llm_mode never, its checks skip the LLM the operator asks always; others still ask', async () => {
    for (const result of [await overHttp(ids.never), await overRpc(ids.never)])
      expect(result).toMatchObject({ engine: 'model', degraded: false });
    expect(fake.requests).toHaveLength(0);
    expect((await overHttp(ids.plain)).engine).toBe('llm');
    expect((await overHttp(undefined)).engine).toBe('llm');
    expect(fake.requests).toHaveLength(2);
  });

  it("when a client sets its thresholds, the same score gets the client's verdict", async () => {
    const body = text();
    const mine = await overHttp(ids.strict, body);
    const theirs = await overHttp(ids.never, body);
    expect(mine.score).toBe(theirs.score);
    expect(mine.verdict).toBe('spam');
    expect(theirs.verdict).not.toBe('spam');
    expect((await overRpc(ids.strict, body)).verdict).toBe('spam');
  });

  it('when a client lists deny terms, a text with one is spam for that client only, over HTTP and RPC', async () => {
    const body = { title: 'Hallo', body: `Wir empfehlen QUXLOR-${run} sehr.` };
    for (const result of [await overHttp(ids.terms, body), await overRpc(ids.terms, body)]) {
      expect(result).toMatchObject({ spam: true, engine: 'rules' });
      expect(result.reasons[0]?.code).toBe('TEXT_CLIENT_DENY_LISTED');
    }
    const other = await overHttp(ids.never, body);
    expect(other.reasons.map((reason) => reason.code)).not.toContain('TEXT_CLIENT_DENY_LISTED');
  });
});
