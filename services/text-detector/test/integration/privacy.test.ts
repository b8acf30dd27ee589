import { randomUUID } from 'node:crypto';
import { textResultSchema } from '@spam-check/contracts';
import { keysUnder, redisUrl, removeKeysUnder } from '@spam-check/test-support';
import { Redis } from 'ioredis';
import { check, startDetector, type StartedDetector } from './helpers';

// The text detector's side of docs/design.md, Privacy and erasure: what a client's reports taught expires
// after FEEDBACK_REPORT_RETENTION_DAYS, and `POST /v1/erasure` erases a client's records, reports and texts.

// A text the model calls ham, so that a report of it as spam teaches the client's weights something.
const TEXT = {
  title: 'Weekly pay',
  body: 'Weekly pay for the youth team coaches is transferred on Fridays; write to us if yours is missing.',
};

async function post(url: string, path: string, client: string, body: unknown) {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-client-id': client },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

async function reportedSpam(url: string, client: string): Promise<boolean> {
  const answer = await check(url, TEXT, { 'x-client-id': client });
  expect(answer.status).toBe(200);
  return textResultSchema.parse(answer.body).reasons.some((reason) => reason.code === 'TEXT_REPORTED_SPAM');
}

describe('text detector privacy (Redis)', () => {
  const prefix = `text-privacy-test-${randomUUID().slice(0, 8)}:`;
  let redis: Redis;
  let detector: StartedDetector;
  beforeAll(async () => {
    redis = new Redis(redisUrl());
    detector = await startDetector({
      REDIS_URL: redisUrl(),
      TEXT_FEEDBACK_PREFIX: prefix,
      FEEDBACK_REPORT_RETENTION_DAYS: String(3 / 86_400),
    });
  });
  afterAll(async () => {
    await detector.stop();
    await removeKeysUnder(redis, prefix);
    redis.disconnect();
  });

  it('when FEEDBACK_REPORT_RETENTION_DAYS has passed, a report and what it taught no longer apply', async () => {
    const client = `retention-${randomUUID()}`;
    expect((await post(detector.url, '/v1/feedback', client, { ...TEXT, label: 'spam' })).status).toBe(200);
    expect(await reportedSpam(detector.url, client)).toBe(true);
    expect(await redis.hlen(`${prefix}weights:{${client}}:entries`)).toBeGreaterThan(1);
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(await reportedSpam(detector.url, client)).toBe(false);
    for (const map of ['reports', 'bands', 'weights', 'texts'])
      expect(await keysUnder(redis, `${prefix}${map}:{${client}}:`)).toEqual([]);
  });

  it('when a client is erased, its check records, learnt state and reported texts go, counted', async () => {
    const client = `erased-${randomUUID()}`;
    const checked = textResultSchema.parse((await check(detector.url, TEXT, { 'x-client-id': client })).body);
    expect(
      (await post(detector.url, '/v1/feedback', client, { check_id: checked.id, label: 'spam' })).status,
    ).toBe(200);
    expect(await reportedSpam(detector.url, client)).toBe(true);
    const expected = {
      text_check_records: (await keysUnder(redis, `${prefix}{${client}}:check:`)).length,
      text_learnt_state:
        (await redis.hlen(`${prefix}reports:{${client}}:entries`)) +
        (await redis.hlen(`${prefix}bands:{${client}}:entries`)) +
        (await redis.hlen(`${prefix}weights:{${client}}:entries`)),
      text_reported_texts: await redis.hlen(`${prefix}texts:{${client}}:entries`),
      // CAMPAIGN_SHARE_DEFAULT is off: the client shares nothing (tests/campaigns.test.ts erases shares).
      text_campaign_reports: 0,
    };
    expect(expected.text_check_records).toBe(2);
    expect(expected.text_reported_texts).toBe(1);

    const erased = await post(detector.url, '/v1/erasure', 'gateway', { client_id: client });
    expect(erased).toEqual({ status: 200, body: { erased: expected } });
    expect((await keysUnder(redis, prefix)).filter((key) => key.includes(client))).toEqual([]);
    expect(await reportedSpam(detector.url, client)).toBe(false);
  });

  it('without an LLM, GET /v1/llm names no host', async () => {
    expect(await (await fetch(`${detector.url}/v1/llm`)).json()).toEqual({ endpoint_host: null });
  });

  it('when an address is erased, it keeps none, so nothing is erased; a bad body is a 400', async () => {
    expect(await post(detector.url, '/v1/erasure', 'gateway', { email: 'jo@example.org' })).toEqual({
      status: 200,
      body: { erased: {} },
    });
    const bad = await post(detector.url, '/v1/erasure', 'gateway', { client_id: 'not valid!' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_FAILED');
  });
});
