import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  feedbackResultSchema,
  hybridResultSchema,
  mailBatchResultSchema,
  mailResultSchema,
  problemSchema,
  textBatchResultSchema,
  textResultSchema,
} from '@spam-check/contracts';
import { startStack, stopService, type Stack, SELF_CONTAINED_ENV } from '@spam-check/process-kit';
import {
  SpamCheckClient,
  SpamCheckError,
  isSpamCheckError,
  type CheckList,
  type ReviewItem,
  type SpamCheckClientOptions,
  type StoredTokens,
} from '../../src';

const USER = { username: 'client-user', password: 'client-password' };
const CLIENTS = ['app', 'rotating', 'throttled', 'capped', 'reviewer'] as const;
const credentials = (id: (typeof CLIENTS)[number]) => ({ clientId: id, clientSecret: `${id}-secret` });
const RATE_LIMIT = 1000;

/** Every exchange the client makes, passed on to the real fetch unchanged. */
function recordingFetch() {
  const calls: { url: string; requestId: string | null; status: number; body?: string }[] = [];
  const recording: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    calls.push({
      url: input instanceof Request ? input.url : input.toString(),
      requestId: new Headers(init?.headers).get('x-request-id'),
      status: response.status,
      ...(typeof init?.body === 'string' ? { body: init.body } : {}),
    });
    return response;
  };
  return { calls, fetch: recording };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The client against the real stack: four processes, tokens of 2 s (the client refreshes after 1 s).
describe('@spam-check/client against the real stack', () => {
  let stack: Stack;
  let env: Record<string, string | undefined>;
  const client = (id: (typeof CLIENTS)[number], options: Partial<SpamCheckClientOptions> = {}) =>
    new SpamCheckClient({ baseUrl: stack.gateway, client: credentials(id), user: USER, ...options });

  beforeAll(async () => {
    const bootstrap = join(mkdtempSync(join(tmpdir(), 'client-')), 'bootstrap.json');
    writeFileSync(
      bootstrap,
      JSON.stringify({
        clients: [
          ...CLIENTS.map((id) => ({
            id,
            secret: `${id}-secret`,
            grants: ['password', 'refresh_token'],
            scopes: ['spam:check'],
          })),
          {
            id: 'site-server',
            secret: 'site-server-secret',
            grants: ['client_credentials'],
            scopes: ['spam:check'],
          },
        ],
        users: [USER],
      }),
    );
    env = {
      ...SELF_CONTAINED_ENV,
      AUTH_BOOTSTRAP_FILE: bootstrap,
      AUTH_ACCESS_TOKEN_LIFETIME_SECONDS: '2',
      RATE_LIMIT_REQUESTS: String(RATE_LIMIT),
      RATE_LIMIT_WINDOW_SECONDS: '2',
    };
    stack = await startStack(env, { readyTimeoutMs: 60_000 });
  }, 90_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it('when it checks at each endpoint in German, it signs in once and gets typed results', async () => {
    const recorded = recordingFetch();
    const api = client('app', { language: 'de', fetch: recorded.fetch });
    const mail = await api.checkMail('not an address', { requestId: 'client-test-1' });
    expect(mailResultSchema.parse(mail)).toMatchObject({
      valid: false,
      spam: true,
      request_id: 'client-test-1',
    });
    expect(mail.reasons.find((r) => r.code === 'EMAIL_INVALID_SYNTAX')?.message).toMatch(/Adresse/);
    const text = await api.checkText({ title: 'Frage', body: 'Wann öffnet die Bibliothek am Samstag?' });
    expect(textResultSchema.parse(text).verdict).toBe('ham');
    const hybrid = await api.checkHybrid(
      { email: 'info@mailinator.com', title: 'Hallo', body: 'Schöner Artikel.' },
      { stepByStep: true },
    );
    expect(hybridResultSchema.parse(hybrid)).toMatchObject({ mode: 'step_by_step', skipped: ['text'] });
    const mails = await api.checkMailBatch(['anna@example.org', 'not an address']);
    expect(mailBatchResultSchema.parse(mails).results).toHaveLength(2);
    const texts = await api.checkTextBatch([{ title: 'a', body: 'b' }]);
    expect(textBatchResultSchema.parse(texts).summary).toBeDefined();
    // It signs in once. The token is due for a refresh after 1 s here, which a loaded machine may pass during
    // these five calls: a refresh is not a sign-in, and the only other call to the token endpoint allowed.
    const grants = recorded.calls
      .filter((call) => call.url.endsWith('/deoauth/token'))
      .map((call) => /^grant_type=(\w+)&/.exec(call.body ?? '')?.[1]);
    expect(grants.filter((grant) => grant === 'password')).toHaveLength(1);
    expect(grants.filter((grant) => grant !== 'password' && grant !== 'refresh_token')).toEqual([]);
    expect(recorded.calls.every((call) => call.requestId)).toBe(true);
    expect(recorded.calls.find((call) => call.url.endsWith('/deapi/v1/spam/mail'))?.requestId).toBe(
      'client-test-1',
    );
  });

  it('when a server signs in with client_credentials, it needs no user, sends form context and signs in again when due', async () => {
    const recorded = recordingFetch();
    const api = new SpamCheckClient({
      baseUrl: stack.gateway,
      client: { clientId: 'site-server', clientSecret: 'site-server-secret' },
      grant: 'client_credentials',
      language: 'fr',
      fetch: recorded.fetch,
    });
    const bot = await api.checkMail({ email: 'anna@example.org', context: { honeypot: 'filled' } });
    expect(bot).toMatchObject({ verdict: 'spam', score: 1 });
    expect(bot.reasons.map((r) => r.code)).toContain('FORM_HONEYPOT_FILLED');
    // The access token lives 2 s here and is renewed after half of it: by a new grant, not a refresh.
    await sleep(1200);
    const person = await api.checkText({
      title: 'Question',
      body: 'Bonjour',
      context: { seconds_to_submit: 20 },
    });
    expect(person.reasons.map((r) => r.code)).not.toContain('FORM_SUBMITTED_TOO_FAST');
    const comment = await api.checkText({
      title: 'Merci',
      body: 'Merci pour cet article, très utile pour mon jardin.',
      context: {
        form_type: 'comment',
        author_name: 'https://jardin.example',
        author_url: 'https://jardin.example',
      },
    });
    expect(comment.signals.form_type).toBe('comment');
    expect(comment.reasons.map((r) => r.code)).toContain('FORM_AUTHOR_NAME_LINK');
    const tokenCalls = recorded.calls.filter((call) => call.url.endsWith('/froauth/token'));
    expect(tokenCalls).toHaveLength(2);
    expect(tokenCalls.every((call) => call.body?.includes('grant_type=client_credentials'))).toBe(true);
  });

  it('when it reports a check as spam, the feedback is typed and the same address is then spam for it', async () => {
    const api = client('app', { language: 'fr' });
    const before = await api.checkMail('feedback.client@example.org');
    expect(before.verdict).not.toBe('spam');
    const feedback = await api.sendFeedback({ check_id: before.id, label: 'spam' });
    expect(feedbackResultSchema.parse(feedback)).toMatchObject({
      check_id: before.id,
      label: 'spam',
      applied_to: ['email'],
    });
    const after = await api.checkMail('feedback.client@example.org');
    expect(after.reasons.map((reason) => reason.code)).toContain('EMAIL_REPORTED_SPAM');
    const unknown = await api
      .sendFeedback({ check_id: 'no-such-check', label: 'ham' })
      .catch((e: unknown) => e);
    expect(isSpamCheckError(unknown) && unknown.problem?.code).toBe('CHECK_NOT_FOUND');
  });

  it('when it lists its checks, the iterator follows the cursor page by page, and reports go in bulk', async () => {
    const api = client('reviewer');
    const ids: string[] = [];
    for (let index = 0; index < 5; index += 1)
      ids.push((await api.checkMail(`reviewer-${index}@example.org`)).id);
    // A check is kept for the list once it has been answered.
    let pages: CheckList[] = [];
    for (let attempt = 0; attempt < 100; attempt += 1) {
      pages = [];
      for await (const page of api.checks.list({ kind: 'mail', limit: 2 })) pages.push(page);
      if (pages.flatMap((page) => page.items).length === ids.length) break;
      await sleep(20);
    }
    expect(pages.map((page) => page.items.length)).toEqual([2, 2, 1]);
    expect(pages.flatMap((page) => page.items.map((item) => item.id))).toEqual([...ids].reverse());

    const answer = await api.sendReports([
      { check_id: ids[0]!, label: 'spam' },
      { check_id: 'no-such-check', label: 'ham' },
    ]);
    expect(answer.results[0]).toMatchObject({ check_id: ids[0], label: 'spam', applied_to: ['email'] });
    expect(answer.results[1]).toMatchObject({ error: { code: 'CHECK_NOT_FOUND', status: 404 } });
    const reported: ReviewItem[] = [];
    for await (const page of api.checks.list({ reported: true, since: new Date(Date.now() - 3600_000) }))
      reported.push(...page.items);
    expect(reported.map((item) => [item.id, item.report?.label])).toEqual([[ids[0], 'spam']]);
  });

  it('when many calls find the token due, one refresh serves them all and the rotated tokens are reported', async () => {
    const recorded = recordingFetch();
    const reported: StoredTokens[] = [];
    const api = client('rotating', {
      fetch: recorded.fetch,
      onTokens: (tokens) => void reported.push(tokens),
    });
    const first = await api.signIn();
    await sleep(first.refresh_at - Date.now() + 50);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => api.checkMail(`user${i}@example.org`)),
    );
    expect(results).toHaveLength(20);
    const refreshes = recorded.calls.filter((call) => call.url.endsWith('/oauth/token'));
    expect(refreshes).toHaveLength(2); // the sign-in, then one refresh
    expect(reported).toHaveLength(2);
    expect(reported[1]!.refresh_token).toBeDefined();
    expect(reported[1]!.refresh_token).not.toBe(first.refresh_token);
    expect(reported[1]!.access_token).not.toBe(first.access_token);
    expect(reported[1]!.expires_at).toBeGreaterThan(first.expires_at);
  });

  it('when its refresh token was already used, it gets invalid_grant and signs in again with the password', async () => {
    const issued = await client('rotating').signIn();
    const due = { ...issued, refresh_at: 0 };
    const first = client('rotating', { tokens: due });
    expect((await first.checkMail('a@example.org')).email.input).toBe('a@example.org');
    expect(first.tokens()!.refresh_token).not.toBe(issued.refresh_token);

    // Presenting the used refresh token again is invalid_grant, and revokes its family (docs/design.md,
    // Tokens).
    const recorded = recordingFetch();
    const second = client('rotating', { tokens: due, fetch: recorded.fetch });
    expect((await second.checkMail('b@example.org')).email.input).toBe('b@example.org');
    const tokenCalls = recorded.calls.filter((call) => call.url.endsWith('/oauth/token'));
    expect(tokenCalls.map((call) => call.status)).toEqual([400, 200]);

    const withoutPassword = client('rotating', { tokens: due, user: undefined });
    await expect(withoutPassword.checkMail('c@example.org')).rejects.toMatchObject({
      code: 'SIGN_IN_REQUIRED',
    });
  });

  it('when its access token is revoked, the API says invalid_token and it renews and retries once', async () => {
    const api = client('app');
    const issued = await api.signIn();
    const other = client('app', { tokens: issued });
    await api.signOut();
    const recorded = recordingFetch();
    // Not yet due for a refresh: the client sends the revoked access token as it is.
    const renewed = client('app', {
      tokens: { ...issued, refresh_at: Date.now() + 60_000 },
      fetch: recorded.fetch,
    });
    await sleep(1050); // the gateway's token cache (1 s without Redis) forgets the revoked token
    expect((await renewed.checkMail('e@example.org')).email.input).toBe('e@example.org');
    expect(recorded.calls.map((call) => call.status)).toEqual([401, 400, 200, 200]);
    expect(other.tokens()!.access_token).toBe(issued.access_token);
  });

  it('when it is rate limited, it waits for Retry-After and retries with the same request id', async () => {
    const recorded = recordingFetch();
    const api = client('throttled', { fetch: recorded.fetch });
    const emails = Array.from({ length: RATE_LIMIT }, (_, i) => `t${i}@example.org`);
    await api.checkMailBatch(emails);
    const result = await api.checkMail('f@example.org', { requestId: 'throttled-1' });
    expect(result.request_id).toBe('throttled-1');
    const attempts = recorded.calls.filter((call) => call.url.endsWith('/api/v1/spam/mail'));
    expect(attempts.length).toBeGreaterThanOrEqual(2);
    expect(attempts[0]!.status).toBe(429);
    expect(attempts.at(-1)!.status).toBe(200);
    expect(new Set(attempts.map((call) => call.requestId))).toEqual(new Set(['throttled-1']));
  });

  it('when Retry-After is longer than its cap, it does not wait and throws the problem', async () => {
    const api = client('capped', { retry: { maxDelayMs: 100 } });
    await api.checkMailBatch(Array.from({ length: RATE_LIMIT }, (_, i) => `c${i}@example.org`));
    const error = await api.checkMail('g@example.org').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SpamCheckError);
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect(problemSchema.parse((error as SpamCheckError).problem).code).toBe('RATE_LIMITED');
    expect((error as SpamCheckError).retryAfter).toBeGreaterThan(0);
  });

  it('when a detector is down for a moment, the 503 is retried after Retry-After and the call succeeds', async () => {
    await stopService(stack.services['email-detector']);
    const recorded = recordingFetch();
    const api = client('app', { fetch: recorded.fetch });
    const pending = api.checkMail('h@example.org');
    await sleep(500);
    await stack.restart('email-detector');
    expect((await pending).email.input).toBe('h@example.org');
    const attempts = recorded.calls.filter((call) => call.url.endsWith('/api/v1/spam/mail'));
    expect(attempts.map((call) => call.status)).toEqual([503, 200]);
  }, 30_000);

  it('when a call is invalid, it throws one typed error carrying the problem document and the request id', async () => {
    const api = client('app', { language: 'fr' });
    const error = (await api
      .checkMailBatch([], { requestId: 'bad-batch' })
      .catch((e: unknown) => e)) as SpamCheckError;
    expect(error).toBeInstanceOf(SpamCheckError);
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', requestId: 'bad-batch' });
    expect(problemSchema.parse(error.problem)).toMatchObject({ request_id: 'bad-batch' });
    expect(error.problem!.detail).toMatch(/champs/);
  });

  it('when the user password is wrong, the sign-in fails with the OAuth error', async () => {
    const api = client('app', { user: { username: USER.username, password: 'wrong' } });
    await expect(api.checkMail('a@example.org')).rejects.toMatchObject({
      code: 'invalid_grant',
      status: 400,
      oauthError: { error: 'invalid_grant' },
    });
  });

  it('when a call takes longer than its deadline, it fails with TIMEOUT', async () => {
    const api = client('app');
    await api.signIn();
    const emails = Array.from({ length: 1000 }, (_, i) => `slow${i}@example.org`);
    await expect(api.checkMailBatch(emails, { timeoutMs: 1 })).rejects.toMatchObject({
      code: 'TIMEOUT',
      status: 0,
    });
  });

  it('when the caller aborts, the call rejects with the signal reason', async () => {
    const api = client('app');
    const controller = new AbortController();
    const pending = api.checkMail('a@example.org', { signal: controller.signal });
    controller.abort(new Error('user cancelled'));
    await expect(pending).rejects.toThrow('user cancelled');
  });
});
