import { randomUUID } from 'node:crypto';
import { textResultSchema } from '@spam-check/contracts';
import { keysUnder, redisUrl, removeKeysUnder } from '@spam-check/test-support';
import { Redis } from 'ioredis';
import { FakeOpenAi } from './fake-openai';
import { check, startDetector, type StartedDetector } from './helpers';

describe('LLM stage against an OpenAI-compatible server on loopback', () => {
  const fake = new FakeOpenAi();
  const prefix = `test:text-llm:${randomUUID()}:`;
  let detector: StartedDetector;
  let redis: Redis;
  let baseUrl: string;

  beforeAll(async () => {
    baseUrl = await fake.start();
    redis = new Redis(redisUrl());
    detector = await startDetector({
      TEXT_LLM_MODE: 'always',
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: baseUrl,
      OPENAI_MODEL: 'test-model',
      TEXT_LLM_TIMEOUT_MS: '400',
      TEXT_LLM_MAX_RETRIES: '1',
      TEXT_LLM_CACHE_TTL_S: '600',
      TEXT_LLM_CACHE_PREFIX: prefix,
      TEXT_FEEDBACK_PREFIX: `${prefix}feedback:`,
      REDIS_URL: redisUrl(),
    });
  });
  afterAll(async () => {
    await detector.stop();
    await removeKeysUnder(redis, prefix);
    await redis.quit();
    await fake.stop();
  });
  beforeEach(() => {
    fake.requests = [];
  });

  const text = (label: string) => ({
    title: `Question ${label}`,
    body: `Text number ${randomUUID()} about a ${label}.`,
  });

  it('when the LLM answers well, it decides, with a structured request, and the answer is cached in Redis', async () => {
    fake.scenario = 'good';
    const body = text('good');
    const first = textResultSchema.parse(
      (await check(detector.url, body, { 'x-request-id': 'llm-good' })).body,
    );
    expect(first).toMatchObject({ engine: 'llm', degraded: false, spam: true, score: 0.9 });
    expect(first.reasons[0]).toMatchObject({ code: 'TEXT_LLM_SPAM', weight: 0.9 });
    expect(first.reasons[0]?.message).toContain('Sells pills.');
    expect(first.signals).toMatchObject({ llm: 'answered', llm_categories: 'advertising' });

    expect(fake.requests).toHaveLength(1);
    const request = fake.requests[0]!;
    expect(request.path).toBe('POST /v1/chat/completions');
    expect(request.authorization).toBe('Bearer sk-test');
    expect(request.body).toMatchObject({
      model: 'test-model',
      response_format: { type: 'json_schema', json_schema: { name: 'spam_verdict', strict: true } },
    });
    const messages = request.body.messages as { role: string; content: string }[];
    expect(messages.map((message) => message.role)).toEqual(['system', 'system', 'user']);
    expect(JSON.parse(messages[2]!.content)).toMatchObject({ title: body.title, body: body.body });

    const second = textResultSchema.parse((await check(detector.url, body)).body);
    expect(second).toMatchObject({ engine: 'llm', spam: true, signals: { llm: 'cached' } });
    expect(fake.requests).toHaveLength(1);
    const keys = await keysUnder(redis, prefix);
    expect(keys).toHaveLength(1);
    expect(await redis.ttl(keys[0]!)).toBeGreaterThan(500);
  });

  it('when the LLM answers ham, the verdict is ham from the llm engine', async () => {
    fake.scenario = 'good';
    fake.answer = { spam: false, confidence: 0.95, categories: [], reason: 'An ordinary question.' };
    try {
      const result = textResultSchema.parse((await check(detector.url, text('ham'))).body);
      expect(result).toMatchObject({ engine: 'llm', spam: false, verdict: 'ham', score: 0.05 });
      expect(result.reasons[0]?.code).toBe('TEXT_LLM_HAM');
    } finally {
      fake.answer = { spam: true, confidence: 0.9, categories: ['advertising'], reason: 'Sells pills.' };
    }
  });

  it.each([
    ['malformed', 'malformed', 1],
    ['429', 'rate_limited', 2],
    ['500', 'error', 2],
    ['slow', 'timeout', 2],
  ] as const)(
    'when the LLM gives a %s answer, the local stages answer with degraded true',
    async (scenario, failure, calls) => {
      fake.scenario = scenario;
      const result = textResultSchema.parse((await check(detector.url, text(scenario))).body);
      expect(result).toMatchObject({ engine: 'model', degraded: true, signals: { llm: failure } });
      expect(result.reasons.map((reason) => reason.code)).toContain('TEXT_LLM_UNAVAILABLE');
      expect(fake.requests).toHaveLength(calls);
    },
  );

  it('exports token usage (three completions so far), outcomes and latency as metrics', async () => {
    const metrics = await (await fetch(`${detector.url}/metrics`)).text();
    expect(metrics).toMatch(/llm_tokens_total\{type="prompt",service="text-detector"\} 360/);
    expect(metrics).toMatch(/llm_tokens_total\{type="completion",service="text-detector"\} 90/);
    expect(metrics).toMatch(/llm_requests_total\{outcome="cached",service="text-detector"\} 1/);
    expect(metrics).toMatch(/llm_requests_total\{outcome="timeout",service="text-detector"\} 1/);
    expect(metrics).toMatch(/llm_request_duration_seconds_count\{service="text-detector"\} [1-9]/);
  });

  it('names the host texts go to at GET /v1/llm (shown in the console)', async () => {
    const answer = await fetch(`${detector.url}/v1/llm`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ endpoint_host: new URL(baseUrl).host });
  });

  it('what leaves for the LLM server (docs/privacy.md): the title, sub-title and body, never the client or request', async () => {
    fake.scenario = 'good';
    const client = `client-${randomUUID()}`;
    const body = { ...text('leaving'), sub_title: 'Sub title' };
    const answer = await check(detector.url, body, { 'x-client-id': client, 'x-request-id': 'llm-leaving' });
    expect(answer.status).toBe(200);
    expect(fake.requests).toHaveLength(1);
    const sent = JSON.stringify(fake.requests[0]!.body);
    const messages = fake.requests[0]!.body.messages as { role: string; content: string }[];
    expect(JSON.parse(messages[2]!.content)).toMatchObject({ title: body.title, body: body.body });
    expect(sent).not.toContain(client);
    expect(sent).not.toContain('llm-leaving');
  });
});

describe('LLM band mode', () => {
  it('asks the LLM only when the local score falls in the band', async () => {
    const fake = new FakeOpenAi();
    const baseUrl = await fake.start();
    const detector = await startDetector({
      TEXT_LLM_MODE: 'band',
      TEXT_LLM_BAND: '0.3,0.8',
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: baseUrl,
      TEXT_LLM_MAX_RETRIES: '0',
    });
    try {
      const sure = textResultSchema.parse(
        (
          await check(detector.url, {
            title: 'Meeting notes',
            body: 'Hi Anna, thanks for the notes from yesterday. I will send the revised schedule to the team on Monday.',
          })
        ).body,
      );
      expect(sure.signals.model_probability).toBeLessThan(0.3);
      expect(sure).toMatchObject({ engine: 'model', degraded: false });
      expect(fake.requests).toHaveLength(0);

      // A soft offer: the model is unsure (its probability is the local score).
      const unsure = textResultSchema.parse(
        (
          await check(detector.url, {
            title: '',
            body: 'Great offer for our members this week, reply if you are interested in the new plan',
          })
        ).body,
      );
      const local = unsure.signals.model_probability as number;
      expect(local).toBeGreaterThanOrEqual(0.3);
      expect(local).toBeLessThan(0.8);
      expect(unsure.engine).toBe('llm');
      expect(fake.requests).toHaveLength(1);
    } finally {
      await detector.stop();
      await fake.stop();
    }
  });
});
