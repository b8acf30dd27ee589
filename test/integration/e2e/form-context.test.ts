import { randomUUID } from 'node:crypto';
import {
  hybridResultSchema,
  mailBatchResultSchema,
  mailResultSchema,
  problemSchema,
  textBatchResultSchema,
  textResultSchema,
} from '@spam-check/contracts';
import {
  freePort,
  startService,
  startStack,
  stopService,
  type ServiceProcess,
  type Stack,
} from '@spam-check/process-kit';
import { keysUnder, redisUrl, runAccount, runClient, sharedStackEnv } from '@spam-check/test-support';
import { Redis } from 'ioredis';
import { obtainServerToken, postJson } from './client';
import { removeRunKeys, stringsOf } from './redis-keys';
import { removeRunQueues } from '../../../services/gateway/test/integration/support/queues';

// The form context's genre and author fields (form_type, author_name, author_url) through the gateway with the
// real services, Redis and RabbitMQ: they reach both detectors in every path (mail, text, hybrid in parallel
// and step by step over RPC, batches), an unknown context field is refused, and nothing of them is kept.
// Arrival shows in the detectors' answers: the text result names the form type it judged
// (`signals.form_type`), and both detectors judge an author name that is a web address
// (FORM_AUTHOR_NAME_LINK).

const codes = (result: { reasons: { code: string }[] }) => result.reasons.map((reason) => reason.code);

/** Every key under the prefixes with every string it holds (members, fields and values), as one text. */
async function storedUnder(redis: Redis, prefixes: string[]): Promise<string> {
  const parts: string[] = [];
  for (const prefix of prefixes)
    for (const key of await keysUnder(redis, prefix)) parts.push(key, ...(await stringsOf(redis, key)));
  return parts.join('\n').toLowerCase();
}

describe('the form type and author fields of the context, end to end', () => {
  const run = randomUUID().slice(0, 8);
  const prefix = `context-${run}:`;
  const account = runAccount(`context-${run}`);
  // Distinctive values: the run id in each, so that a search of Redis and the logs finds only these.
  const authorName = `https://name-${run}.example`;
  const authorUrl = `https://site-${run}.example/about`;
  const context = { form_type: 'comment', author_name: authorName, author_url: authorUrl } as const;
  const text = {
    title: 'Frage zum Rezept',
    body: 'Wie lange muss der Teig ruhen, bevor er in den Ofen kommt?',
  };
  const email = 'leser@example.org';
  let stack: Stack;
  /** A second gateway whose detectors' HTTP addresses answer nothing: its checks can only go over RPC. */
  let rpcOnly: ServiceProcess;
  let token: string;

  beforeAll(async () => {
    const env = {
      LOG_LEVEL: 'debug',
      ...sharedStackEnv(prefix, {
        clients: [runClient(account, ['spam:check'], ['client_credentials'])],
        users: [],
      }),
      CLIENT_SETTINGS_PREFIX: `${prefix}settings:`,
      CLIENT_SETTINGS_CHANNEL: `${prefix}settings`,
    };
    stack = await startStack(env, { readyTimeoutMs: 180_000 });
    const nothing = `http://127.0.0.1:${await freePort()}`;
    rpcOnly = await startService(
      'gateway',
      {
        ...env,
        GATEWAY_MANAGEMENT_PORT: String(await freePort()),
        AUTH_URL: stack.services.auth.url,
        EMAIL_DETECTOR_URL: nothing,
        TEXT_DETECTOR_URL: nothing,
      },
      await freePort(),
      { ignoreChecks: ['email-detector', 'text-detector'], timeoutMs: 180_000 },
    );
    const issued = await obtainServerToken(stack.gateway, '/de', account);
    expect(issued.status).toBe(200);
    token = issued.body.access_token;
  }, 400_000);

  afterAll(async () => {
    if (rpcOnly) await stopService(rpcOnly);
    await stack?.stop();
    await removeRunKeys(prefix);
    await removeRunQueues(prefix);
  });

  it('when a text check at /deapi carries them, the text detector judges the form type and the author name', async () => {
    const response = await postJson(`${stack.gateway}/deapi/v1/spam/text`, token, { ...text, context });
    expect(response.status).toBe(200);
    const result = textResultSchema.parse(response.body);
    expect(result.signals.form_type).toBe('comment');
    expect(codes(result)).toContain('FORM_AUTHOR_NAME_LINK');
    expect(result.verdict).not.toBe('ham');
    expect(result.reasons.find((reason) => reason.code === 'FORM_AUTHOR_NAME_LINK')?.message).toMatch(
      /Webadresse/,
    );
  });

  it('when a mail check at /frapi carries them, the e-mail detector judges the author name', async () => {
    const response = await postJson(`${stack.gateway}/frapi/v1/spam/mail`, token, { email, context });
    expect(response.status).toBe(200);
    const result = mailResultSchema.parse(response.body);
    expect(codes(result)).toContain('FORM_AUTHOR_NAME_LINK');
    expect(result.verdict).not.toBe('ham');
  });

  it('when a form type alone comes with a text, the text is judged as that kind and nothing more is said', async () => {
    const response = await postJson(`${stack.gateway}/deapi/v1/spam/text`, token, {
      ...text,
      context: { form_type: 'contact' },
    });
    expect(response.status).toBe(200);
    const result = textResultSchema.parse(response.body);
    expect(result.signals.form_type).toBe('contact');
    expect(codes(result)).not.toContain('FORM_AUTHOR_NAME_LINK');
  });

  it('when a hybrid check runs in parallel over HTTP, both parts get the context', async () => {
    const response = await postJson(`${stack.gateway}/deapi/v1/spam/hybrid-check`, token, {
      ...text,
      email,
      context,
    });
    expect(response.status).toBe(200);
    const result = hybridResultSchema.parse(response.body);
    expect(result.mode).toBe('parallel');
    expect(codes(result.email)).toContain('FORM_AUTHOR_NAME_LINK');
    expect(result.text?.signals.form_type).toBe('comment');
    expect(codes(result.text!)).toContain('FORM_AUTHOR_NAME_LINK');
  });

  it('when a hybrid check runs step by step over RabbitMQ, both detectors get the context by RPC', async () => {
    // The author name alone (no web address in it) keeps the e-mail ham, so the text is checked too.
    const response = await postJson(
      `${rpcOnly.url}/deapi/v1/spam/hybrid-check`,
      token,
      { ...text, email, context: { form_type: 'review', author_name: 'Lena' } },
      { 'X-Internal-Step-By-Step': 'true' },
    );
    expect(response.status).toBe(200);
    const result = hybridResultSchema.parse(response.body);
    expect(result).toMatchObject({ mode: 'step_by_step', skipped: [] });
    expect(result.text?.signals.form_type).toBe('review');
    const linked = await postJson(
      `${rpcOnly.url}/api/v1/spam/hybrid-check`,
      token,
      { ...text, email, context },
      { 'X-Internal-Step-By-Step': 'yes' },
    );
    expect(linked.status).toBe(200);
    const both = hybridResultSchema.parse(linked.body);
    expect(codes(both.email)).toContain('FORM_AUTHOR_NAME_LINK');
    expect(both.text === null ? [] : codes(both.text)).toContain('FORM_AUTHOR_NAME_LINK');
  });

  it('when the detectors cannot be reached over HTTP, the parallel check of the RPC-only gateway fails: step by step went over RabbitMQ', async () => {
    const response = await postJson(`${rpcOnly.url}/api/v1/spam/hybrid-check`, token, { ...text, email });
    expect(response.status).toBe(503);
  });

  it('when batch items carry them, each item reaches its detector with its own, and an unknown field fails only its item', async () => {
    const texts = await postJson(`${stack.gateway}/deapi/v1/spam/text/batch`, token, {
      items: [
        { ...text, context },
        { ...text, context: { form_type: 'forum_post', author: 'misspelt' } },
        { ...text, context: { form_type: 'signup' } },
      ],
    });
    expect(texts.status).toBe(200);
    const textResults = textBatchResultSchema.parse(texts.body).results as any[];
    expect(textResults[0].signals.form_type).toBe('comment');
    expect(codes(textResults[0])).toContain('FORM_AUTHOR_NAME_LINK');
    expect(problemSchema.parse(textResults[1].error)).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
    });
    expect(textResults[1].error.errors[0].path).toMatch(/^items\.1\.context/);
    expect(textResults[2].signals.form_type).toBe('signup');

    const mails = await postJson(`${stack.gateway}/frapi/v1/spam/mail/batch`, token, {
      emails: [{ email, context }, { email, context: { form_typ: 'comment' } }, email],
    });
    expect(mails.status).toBe(200);
    const mailResults = mailBatchResultSchema.parse(mails.body).results as any[];
    expect(codes(mailResults[0])).toContain('FORM_AUTHOR_NAME_LINK');
    expect(mailResults[1].error).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect(codes(mailResults[2])).not.toContain('FORM_AUTHOR_NAME_LINK');
  });

  it.each([
    ['/deapi/v1/spam/text', { ...text, context: { form_type: 'comment', autor_name: 'Lena' } }],
    ['/frapi/v1/spam/mail', { email, context: { formtype: 'comment' } }],
    ['/deapi/v1/spam/hybrid-check', { ...text, email, context: { author_email: email } }],
  ])('when %s gets an unknown context field, it is 400 VALIDATION_FAILED naming it', async (path, body) => {
    const response = await postJson(`${stack.gateway}${path}`, token, body);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(problemSchema.parse(response.body)).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(response.body.errors[0].path).toMatch(/^context/);
  });

  it.each([
    ['an unknown form type', { form_type: 'guestbook' }, 'context.form_type'],
    ['an author name over 200 characters', { author_name: 'x'.repeat(201) }, 'context.author_name'],
    ['an author URL over 2,000 characters', { author_url: 'x'.repeat(2001) }, 'context.author_url'],
  ])('when a text check has %s, it is 400 VALIDATION_FAILED', async (_, bad, path) => {
    const response = await postJson(`${stack.gateway}/deapi/v1/spam/text`, token, { ...text, context: bad });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path }] });
  });

  it('when the checks are done, neither Redis nor any service log holds the author name or URL', async () => {
    const redis = new Redis(redisUrl());
    try {
      const stored = await storedUnder(redis, [prefix]);
      // The checks above left their records, usage and rate-limit counts under the run's prefix.
      expect(stored).toContain(account.client.toLowerCase());
      expect(stored).not.toContain(`name-${run}`);
      expect(stored).not.toContain(`site-${run}`);
    } finally {
      redis.disconnect();
    }
    const logs = [...Object.values(stack.services), rpcOnly].map((service) => service.output()).join('\n');
    expect(logs).toContain(account.client);
    expect(logs).not.toContain(`name-${run}`);
    expect(logs).not.toContain(`site-${run}`);
  });
});
