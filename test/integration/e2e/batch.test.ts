import { randomUUID } from 'node:crypto';
import {
  mailBatchResultSchema,
  mailResultSchema,
  problemSchema,
  textBatchResultSchema,
} from '@spam-check/contracts';
import { startStack, type Stack } from '@spam-check/process-kit';
import { redisUrl, runStackEnv } from '@spam-check/test-support';
import { obtainToken, postJson, request } from './client';
import { removeRunKeys } from './redis-keys';

const LIMIT = 1500;

// The batch checks of docs/design.md, Batch checks through the real stack (four processes, rate limits in
// Redis).
describe('batch checks, end to end over HTTP', () => {
  const run = randomUUID().slice(0, 8);
  const client = (name: string) => ({
    client: `batch-${name}-${run}`,
    secret: `secret-${randomUUID()}`,
    username: `batch-${run}`,
    password: 'batch-password',
  });
  const main = client('main');
  const limited = client('limited');
  let stack: Stack;
  let token: string;

  beforeAll(async () => {
    const runEnv = runStackEnv(`batch-${run}:`, {
      clients: [
        ...[main, limited].map((c) => ({
          id: c.client,
          secret: c.secret,
          grants: ['password'],
          scopes: ['spam:check'],
        })),
      ],
      users: [{ username: main.username, password: main.password }],
    });
    stack = await startStack(
      {
        REDIS_URL: redisUrl(),
        AMQP_URL: undefined,
        ...runEnv,
        EMAIL_DNS_CHECK: 'off',
        OPENAI_API_KEY: undefined,
        RATE_LIMIT_REQUESTS: String(LIMIT),
        MAX_BATCH_BODY_BYTES: String(1024 * 1024),
      },
      { readyTimeoutMs: 60_000 },
    );
    token = (await obtainToken(stack.gateway, '/', main)).body.access_token;
  }, 90_000);

  afterAll(async () => {
    await stack?.stop();
    await removeRunKeys(`batch-${run}:`);
  });

  it('when a mail batch at /deapi holds invalid items, they get problems in place and the others are checked', async () => {
    const response = await postJson(`${stack.gateway}/deapi/v1/spam/mail/batch`, token, {
      emails: ['anna.schmidt@example.org', 42, 'not an address', 'x'.repeat(1025), 'info@mailinator.com'],
    });
    expect(response.status).toBe(200);
    const body = mailBatchResultSchema.parse(response.body);
    expect(body.results).toHaveLength(5);
    const [first, second, third, fourth, fifth] = body.results as any[];
    expect(mailResultSchema.parse(first).email.input).toBe('anna.schmidt@example.org');
    expect(problemSchema.parse(second.error)).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      request_id: body.request_id,
      errors: [{ path: 'emails.1' }],
    });
    expect(second.error.detail).toMatch(/Felder/);
    expect(third).toMatchObject({ valid: false, spam: true, email: { input: 'not an address' } });
    expect(
      mailResultSchema.parse(third).reasons.find((r) => r.code === 'EMAIL_INVALID_SYNTAX')?.message,
    ).toMatch(/Adresse/);
    expect(fourth.error).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path: 'emails.3' }] });
    expect(fifth).toMatchObject({ spam: true, email: { input: 'info@mailinator.com' } });
    const verdicts = [first, third, fifth].map((r) => r.verdict as 'ham' | 'suspicious' | 'spam');
    const expected = { ham: 0, suspicious: 0, spam: 0 };
    for (const verdict of verdicts) expected[verdict] += 1;
    expect(body.summary).toEqual(expected);
    expect(response.headers.get('x-request-id')).toBe(body.request_id);
    expect(first.request_id).toBe(body.request_id);
  });

  it('when a mail batch of 1,000 addresses is sent, every result comes back in request order', async () => {
    const emails = Array.from({ length: 1000 }, (_, i) => `user${i}@example.org`);
    const response = await postJson(`${stack.gateway}/api/v1/spam/mail/batch`, token, { emails });
    expect(response.status).toBe(200);
    const body = mailBatchResultSchema.parse(response.body);
    expect(body.results.map((r: any) => r.email.input)).toEqual(emails);
    expect(body.summary.ham + body.summary.suspicious + body.summary.spam).toBe(1000);
  });

  it('when a text batch at /frapi holds an item without body, it gets a problem and the others are checked', async () => {
    const response = await postJson(`${stack.gateway}/frapi/v1/spam/text/batch`, token, {
      items: [
        { title: 'Bonjour', body: 'À quelle heure ouvre la bibliothèque samedi ?' },
        { title: 'Sans corps' },
        { title: 'Frage', body: 'Wann öffnet die Bibliothek am Samstag?', sub_title: 'Bibliothek' },
      ],
    });
    expect(response.status).toBe(200);
    const body = textBatchResultSchema.parse(response.body);
    const [first, second, third] = body.results as any[];
    expect(first).toMatchObject({ verdict: 'ham', request_id: body.request_id });
    expect(second.error).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path: 'items.1.body' }] });
    expect(second.error.detail).toMatch(/champs/);
    expect(third.verdict).toBeDefined();
    expect(body.summary.ham + body.summary.suspicious + body.summary.spam).toBe(2);
  });

  it.each([
    ['no items', { emails: [] }, 'emails'],
    ['1,001 items', { emails: Array.from({ length: 1001 }, () => 'a@example.org') }, 'emails'],
    ['no list', { email: 'a@example.org' }, 'emails'],
  ])('when a mail batch has %s, it is 400 VALIDATION_FAILED', async (_name, body, path) => {
    const response = await postJson(`${stack.gateway}/api/v1/spam/mail/batch`, token, body);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(response.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path }] });
  });

  it('when a text batch has 101 items, it is 400', async () => {
    const items = Array.from({ length: 101 }, () => ({ title: 't', body: 'b' }));
    const response = await postJson(`${stack.gateway}/api/v1/spam/text/batch`, token, { items });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path: 'items' }] });
  });

  it('when a batch body is larger than MAX_BATCH_BODY_BYTES, it is 413', async () => {
    const emails = Array.from({ length: 1000 }, () => `${'a'.repeat(1040)}@example.org`);
    const response = await postJson(`${stack.gateway}/api/v1/spam/mail/batch`, token, { emails });
    expect(response.status).toBe(413);
    expect(response.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });

  it('when a batch has no token, an unknown prefix or another method, it is 401, 404 or 405', async () => {
    const body = { emails: ['a@example.org'] };
    expect((await postJson(`${stack.gateway}/api/v1/spam/mail/batch`, undefined, body)).status).toBe(401);
    expect((await postJson(`${stack.gateway}/xxapi/v1/spam/mail/batch`, token, body)).status).toBe(404);
    const get = await request(`${stack.gateway}/api/v1/spam/text/batch`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('when a client sends batches, each item counts against its rate limit', async () => {
    const other = (await obtainToken(stack.gateway, '/', { ...limited, username: main.username })).body
      .access_token;
    const emails = Array.from({ length: 1000 }, (_, i) => `limited${i}@example.org`);
    const url = `${stack.gateway}/api/v1/spam/mail/batch`;

    const full = await postJson(url, other, { emails });
    expect(full.status).toBe(200);
    expect(full.headers.get('ratelimit-remaining')).toBe(String(LIMIT - 1000));
    expect(full.headers.get('retry-after')).toBeNull();

    const partial = await postJson(url, other, { emails });
    expect(partial.status).toBe(200);
    expect(partial.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(partial.headers.get('retry-after'))).toBeGreaterThan(0);
    const results = mailBatchResultSchema.parse(partial.body).results as any[];
    expect(results.slice(0, LIMIT - 1000).every((r) => r.verdict)).toBe(true);
    expect(results.slice(LIMIT - 1000).every((r) => r.error?.code === 'RATE_LIMITED')).toBe(true);
    expect(results[LIMIT - 1000].error.status).toBe(429);

    const single = await postJson(`${stack.gateway}/api/v1/spam/mail`, other, { email: 'a@example.org' });
    expect(single.status).toBe(429);
    const refused = await postJson(url, other, { emails: ['a@example.org'] });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);

    const unaffected = await postJson(url, token, { emails: ['a@example.org'] });
    expect(unaffected.status).toBe(200);
  });
});
