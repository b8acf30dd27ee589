import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  checkSubmission,
  signRenderTime,
  type SpamCheckOptions,
  type SubmissionLog,
} from '@spam-check/middleware';
import { SELF_CONTAINED_ENV, startStack, type Stack } from '@spam-check/process-kit';

const SECRET = 'form-secret';
// The API of this stack takes shorter titles than the middleware's defaults, as a deployment may configure.
const STACK_TITLE_LIMIT = 200;

// A form rendered a minute ago: a person's pace, so only the fields decide.
const renderedAMinuteAgo = () => signRenderTime(SECRET, Date.now() - 60_000);

// The middleware's checkSubmission against the real stack (four processes, as `pnpm start` runs them).
describe('checkSubmission against the real stack', () => {
  jest.setTimeout(60_000);
  let stack: Stack;
  let logs: SubmissionLog[];

  beforeAll(async () => {
    stack = await startStack(
      { ...SELF_CONTAINED_ENV, AUTH_SCRYPT_COST: '1024', MAX_TITLE_LENGTH: String(STACK_TITLE_LIMIT) },
      { readyTimeoutMs: 240_000 },
    );
  }, 300_000);
  afterAll(() => stack?.stop());
  beforeEach(() => {
    logs = [];
  });

  const options = (extra: Partial<SpamCheckOptions> = {}): SpamCheckOptions => ({
    // A deadline for a loaded test machine; the middleware's default (3 s) suits a site.
    api: { baseUrl: stack.gateway, clientId: 'demo-client', clientSecret: 'demo-secret', timeoutMs: 30_000 },
    secret: SECRET,
    mode: 'enforce',
    onUnavailable: 'allow',
    log: (entry) => logs.push(entry),
    ...extra,
  });

  it('when a bot fills the honeypot and pads the title past the API limit, it is refused as spam, not let through as unavailable', async () => {
    const outcome = await checkSubmission(
      {
        fields: {
          email: 'ham@spam-check.test',
          title: 'x'.repeat(1001),
          body: 'Cheap pills',
          website_url: 'https://cheap.example',
          spam_check_ts: renderedAMinuteAgo(),
        },
      },
      options(),
    );
    expect(outcome).toMatchObject({ allowed: false, verdict: 'spam', mode: 'enforce' });
    expect(outcome.status).not.toBe('unavailable');
    expect(outcome.reasons.map((reason) => reason.code)).toEqual(['FORM_HONEYPOT_FILLED']);
    expect(logs).toEqual([expect.objectContaining({ allowed: false, reasons: ['FORM_HONEYPOT_FILLED'] })]);
  });

  it('when a bot fills the honeypot and pads the address past the API limit, it is refused as spam', async () => {
    const outcome = await checkSubmission(
      {
        fields: {
          email: `${'a'.repeat(1030)}@example.org`,
          website_url: 'x',
          spam_check_ts: renderedAMinuteAgo(),
        },
      },
      options(),
    );
    expect(outcome).toMatchObject({ allowed: false, verdict: 'spam' });
  });

  it('when an address alone is longer than the API takes, it is refused as spam without asking the API', async () => {
    const outcome = await checkSubmission(
      { fields: { email: `${'a'.repeat(1030)}@example.org`, spam_check_ts: renderedAMinuteAgo() } },
      options(),
    );
    expect(outcome).toMatchObject({ allowed: false, verdict: 'spam', status: 'local' });
    expect(outcome.reasons.map((reason) => reason.code)).toEqual(['EMAIL_INVALID_SYNTAX']);
  });

  it('when the body is one character past the API limit, it is cut to the limit and checked by the API', async () => {
    const outcome = await checkSubmission(
      {
        fields: {
          title: 'Opening hours',
          body: `When does the library open on Saturday? ${'a'.repeat(100_001)}`,
          spam_check_ts: renderedAMinuteAgo(),
        },
      },
      options(),
    );
    expect(outcome).toMatchObject({ status: 'checked' });
    expect(outcome.checkId).toEqual(expect.any(String));
  });

  it('when a body of multi-byte characters, control characters and a lone surrogate is over the request size, it is cut until it fits and checked', async () => {
    const outcome = await checkSubmission(
      {
        fields: {
          title: 'Frage \ud800',
          body: `${'漢'.repeat(60_000)}${'\u0001'.repeat(40_000)}`,
          spam_check_ts: renderedAMinuteAgo(),
        },
      },
      options(),
    );
    expect(outcome).toMatchObject({ status: 'checked' });
  });

  it('when a form posted at once makes the API refuse the call with a padded title, it is still refused as too fast', async () => {
    const outcome = await checkSubmission(
      { fields: { title: 'x'.repeat(STACK_TITLE_LIMIT + 1), body: 'Buy now' } },
      options({ refuse: ['spam', 'suspicious'] }),
    );
    expect(outcome).toMatchObject({
      allowed: false,
      status: 'local',
      verdict: 'suspicious',
      error: 'VALIDATION_FAILED',
    });
    expect(outcome.reasons.map((reason) => reason.code)).toEqual(['FORM_SUBMITTED_TOO_FAST']);
  });

  it('when a form posted at once is checked by the API, the API verdict with its reasons decides', async () => {
    const outcome = await checkSubmission(
      { fields: { email: 'ham@spam-check.test' }, userAgent: 'python-requests/2.32.3' },
      options({ refuse: ['spam', 'suspicious'] }),
    );
    expect(outcome).toMatchObject({ allowed: false, status: 'checked' });
    expect(outcome.reasons.map((reason) => reason.code)).toEqual(
      expect.arrayContaining(['FORM_SUBMITTED_TOO_FAST', 'FORM_BOT_USER_AGENT']),
    );
  });

  it('when the API refuses the submission with a 400, it is refused in enforce mode and never counted as unavailable', async () => {
    const fields = {
      title: 'x'.repeat(STACK_TITLE_LIMIT + 1),
      body: 'Hello',
      spam_check_ts: renderedAMinuteAgo(),
    };
    const enforced = await checkSubmission({ fields }, options());
    expect(enforced).toMatchObject({ allowed: false, status: 'rejected', error: 'VALIDATION_FAILED' });
    const dryRun = await checkSubmission({ fields }, options({ mode: 'dry-run' }));
    expect(dryRun).toMatchObject({ allowed: true, status: 'rejected', error: 'VALIDATION_FAILED' });
  });

  it('when the site signs in with a wrong secret, the 401 is a rejection, not unavailable', async () => {
    const outcome = await checkSubmission(
      { fields: { email: 'ham@spam-check.test', spam_check_ts: renderedAMinuteAgo() } },
      options({
        api: { baseUrl: stack.gateway, clientId: 'demo-client', clientSecret: 'wrong', timeoutMs: 30_000 },
      }),
    );
    expect(outcome).toMatchObject({ allowed: false, status: 'rejected', error: 'invalid_client' });
  });
});

// What lies outside the site: an API that answers wrongly, on loopback.
describe('checkSubmission against an API that answers wrongly', () => {
  let server: http.Server;
  let answer: { status: number; body: unknown };

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const token = req.url?.includes('oauth/token');
        const reply = token
          ? { status: 200, body: { access_token: 't', token_type: 'Bearer', expires_in: 3600 } }
          : answer;
        res.writeHead(reply.status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(reply.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const submit = (extra: Partial<SpamCheckOptions> = {}) => {
    const { port } = server.address() as AddressInfo;
    return checkSubmission(
      { fields: { email: 'ham@spam-check.test', spam_check_ts: renderedAMinuteAgo() } },
      {
        api: { baseUrl: `http://127.0.0.1:${port}`, clientId: 'site', clientSecret: 'secret' },
        secret: SECRET,
        log: () => undefined,
        ...extra,
      },
    );
  };

  it('when a 200 answer has reasons as a string, the API counts as unavailable and nothing throws', async () => {
    answer = {
      status: 200,
      body: { id: 'c1', verdict: 'spam', score: 1, spam: true, reasons: 'FORM_HONEYPOT_FILLED' },
    };
    await expect(submit()).resolves.toMatchObject({
      allowed: true,
      status: 'unavailable',
      error: 'BAD_RESPONSE',
    });
    await expect(submit({ onUnavailable: 'reject' })).resolves.toMatchObject({
      allowed: false,
      status: 'unavailable',
    });
  });

  it('when a 200 answer has no verdict, the API counts as unavailable', async () => {
    answer = { status: 200, body: { id: 'c1', score: 0.1, reasons: [] } };
    await expect(submit()).resolves.toMatchObject({ status: 'unavailable', error: 'BAD_RESPONSE' });
  });

  it('when the API answers a 5xx to a form posted at once, it is refused as too fast where suspicious is refused', async () => {
    answer = { status: 500, body: {} };
    const { port } = server.address() as AddressInfo;
    const outcome = await checkSubmission(
      { fields: { email: 'ham@spam-check.test' } },
      {
        api: { baseUrl: `http://127.0.0.1:${port}`, clientId: 'site', clientSecret: 'secret' },
        secret: SECRET,
        refuse: ['spam', 'suspicious'],
        log: () => undefined,
      },
    );
    expect(outcome).toMatchObject({ allowed: false, status: 'local', verdict: 'suspicious' });
  });

  it('when the API answers a 5xx, it counts as unavailable and onUnavailable decides', async () => {
    answer = {
      status: 503,
      body: { type: 'about:blank', title: 'Unavailable', status: 503, code: 'SERVICE_UNAVAILABLE' },
    };
    await expect(submit()).resolves.toMatchObject({ allowed: true, status: 'unavailable' });
    await expect(submit({ onUnavailable: 'reject' })).resolves.toMatchObject({ allowed: false });
  });
});
