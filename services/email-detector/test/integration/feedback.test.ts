import { randomUUID } from 'node:crypto';
import { mailResultSchema } from '@spam-check/contracts';
import { redisUrl, removeKeysUnder, reportFeedback } from '@spam-check/test-support';
import { Redis } from 'ioredis';
import { detectorForSuite, startDetector, type StartedDetector } from './support/start-service';

async function codesFor(detector: StartedDetector, client: string, email: string): Promise<string[]> {
  const response = await detector.check({ email }, { 'x-client-id': client });
  expect(response.status).toBe(200);
  return mailResultSchema.parse(response.body).reasons.map((reason) => reason.code);
}

describe('POST /v1/feedback of the e-mail detector (Redis)', () => {
  const env = {
    EMAIL_DNS_CHECK: 'off',
    REDIS_URL: redisUrl(),
    EMAIL_FEEDBACK_PREFIX: `email-feedback-test-${randomUUID().slice(0, 8)}:`,
    FEEDBACK_MAX_REPORTS: '2',
  };
  const detector = detectorForSuite(env);
  // After the detector has stopped (after-all hooks run in the order they are declared).
  afterAll(async () => {
    const redis = new Redis(redisUrl());
    await removeKeysUnder(redis, env.EMAIL_FEEDBACK_PREFIX);
    redis.disconnect();
  });

  it('when a client reports more addresses than its cap, the oldest report is dropped', async () => {
    const client = `capped-${randomUUID()}`;
    const addresses = ['first@example.org', 'second@example.org', 'third@example.org'];
    for (const email of addresses)
      expect((await reportFeedback(detector.url, client, { email, label: 'spam' })).status).toBe(200);
    expect(await codesFor(detector, client, addresses[0]!)).not.toContain('EMAIL_REPORTED_SPAM');
    expect(await codesFor(detector, client, addresses[1]!)).toContain('EMAIL_REPORTED_SPAM');
    expect(await codesFor(detector, client, addresses[2]!)).toContain('EMAIL_REPORTED_SPAM');
  });

  it('when the service restarts, the reports are still there, for that client only', async () => {
    const client = `durable-${randomUUID()}`;
    const checked = mailResultSchema.parse(
      (await detector.check({ email: 'keep@example.org' }, { 'x-client-id': client })).body,
    );
    expect((await reportFeedback(detector.url, client, { check_id: checked.id, label: 'spam' })).status).toBe(
      200,
    );
    const restarted = await startDetector(env);
    try {
      expect(await codesFor(restarted, client, 'KEEP+x@example.org')).toContain('EMAIL_REPORTED_SPAM');
      expect(await codesFor(restarted, `other-${randomUUID()}`, 'keep@example.org')).not.toContain(
        'EMAIL_REPORTED_SPAM',
      );
    } finally {
      await restarted.stop();
    }
  });

  it('when an invalid address or a fixture is reported, the report is accepted and changes nothing', async () => {
    const client = `fixture-${randomUUID()}`;
    for (const email of ['not an address', 'spam@spam-check.test'])
      expect((await reportFeedback(detector.url, client, { email, label: 'ham' })).status).toBe(200);
    expect(await codesFor(detector, client, 'not an address')).toEqual(['EMAIL_INVALID_SYNTAX']);
    expect(await codesFor(detector, client, 'spam@spam-check.test')).toEqual(['EMAIL_TEST_FIXTURE']);
  });

  it('when the body is not a report or the client is missing, it is a 400', async () => {
    expect((await reportFeedback(detector.url, 'c', { email: 'a@example.org', label: 'junk' })).status).toBe(
      400,
    );
    const anonymous = await fetch(`${detector.url}/v1/feedback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'a@example.org', label: 'spam' }),
    });
    expect(anonymous.status).toBe(400);
  });
});

describe('POST /v1/feedback of the e-mail detector with FEEDBACK_RETENTION_SECONDS=0 (embedded)', () => {
  const detector = detectorForSuite({ EMAIL_DNS_CHECK: 'off', FEEDBACK_RETENTION_SECONDS: '0' });

  it('when nothing is kept, a report by check id is 404, and one by address still applies', async () => {
    const checked = mailResultSchema.parse(
      (await detector.check({ email: 'x@example.org' }, { 'x-client-id': 'a' })).body,
    );
    const byId = await reportFeedback(detector.url, 'a', { check_id: checked.id, label: 'spam' });
    expect(byId.status).toBe(404);
    expect(byId.body.code).toBe('CHECK_NOT_FOUND');
    expect((await reportFeedback(detector.url, 'a', { email: 'x@example.org', label: 'spam' })).status).toBe(
      200,
    );
    expect(await codesFor(detector, 'a', 'x@example.org')).toContain('EMAIL_REPORTED_SPAM');
  });
});

describe('the e-mail detector when its Redis is down', () => {
  const detector = detectorForSuite({ EMAIL_DNS_CHECK: 'off', REDIS_URL: 'redis://127.0.0.1:9' });

  it("when a client's check or report cannot reach the store, it is 503, not a verdict without its reports", async () => {
    const checked = await detector.check({ email: 'down@example.org' }, { 'x-client-id': 'a' });
    expect(checked.status).toBe(503);
    expect(checked.body.code).toBe('SERVICE_UNAVAILABLE');
    expect(
      (await reportFeedback(detector.url, 'a', { email: 'down@example.org', label: 'spam' })).status,
    ).toBe(503);
  });
});
