import {
  hybridResultSchema,
  mailResultSchema,
  problemSchema,
  textResultSchema,
  tokenResponseSchema,
} from '@spam-check/contracts';
import { startStack, type Stack } from '@spam-check/process-kit';
import { obtainServerToken, obtainToken, postJson, request, retryingUnavailable } from './client';

// The stack exactly as `pnpm start` runs it: four processes, embedded defaults (no Redis, RabbitMQ or OpenAI).
describe('the stack in embedded mode, end to end over HTTP', () => {
  let stack: Stack;
  let token: string;

  beforeAll(async () => {
    stack = await startStack({
      REDIS_URL: undefined,
      AMQP_URL: undefined,
      OPENAI_API_KEY: undefined,
      EMAIL_DNS_CHECK: 'off',
    });
    // Its first password login is the stack's first scrypt: at a load of 30 it took 1.5 s of the gateway's
    // 2 s bound on auth, and a 503 here left every test below with no token (401).
    const issued = await retryingUnavailable(() => obtainToken(stack.gateway, '/de'));
    expect(issued.status).toBe(200);
    token = issued.body.access_token;
  }, 60_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it.each(['/de', '/fr'])(
    'when the demo user asks at %soauth/token, it gets a bearer token',
    async (prefix) => {
      const response = await obtainToken(stack.gateway, prefix);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('pragma')).toBe('no-cache');
      const body = tokenResponseSchema.parse(response.body);
      expect(body.token_type).toBe('Bearer');
      expect(body.scope).toBe('spam:check');
      expect(Buffer.from(body.access_token, 'base64url').length).toBeGreaterThanOrEqual(32);
    },
  );

  it.each(['/de', '/fr', '/en', '/de/', '/'])(
    'when a site server asks for client_credentials at %soauth/token, its token checks without a refresh token',
    async (prefix) => {
      const response = await obtainServerToken(stack.gateway, prefix);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const body = tokenResponseSchema.parse(response.body);
      expect(body).toMatchObject({ token_type: 'Bearer', scope: 'spam:check' });
      expect(body.refresh_token).toBeUndefined();
      const check = await postJson(`${stack.gateway}/api/v1/spam/mail`, body.access_token, {
        email: 'anna.schmidt@example.org',
      });
      expect(check.status).toBe(200);
    },
  );

  it('when a mail check is posted at /deapi, it answers a mail result in German', async () => {
    const response = await postJson(`${stack.gateway}/deapi/v1/spam/mail`, token, {
      email: 'not an address',
    });
    expect(response.status).toBe(200);
    const result = mailResultSchema.parse(response.body);
    expect(result).toMatchObject({ valid: false, spam: true, verdict: 'spam' });
    const reason = result.reasons.find((r) => r.code === 'EMAIL_INVALID_SYNTAX');
    expect(reason?.message).toMatch(/Adresse/);
    expect(response.headers.get('x-request-id')).toBe(result.request_id);
  });

  it('when a text check is posted at /frapi, it answers a text result in French', async () => {
    const response = await postJson(`${stack.gateway}/frapi/v1/spam/text`, token, {
      title: 'Bonjour',
      body: 'À quelle heure ouvre la bibliothèque samedi ?',
    });
    expect(response.status).toBe(200);
    const result = textResultSchema.parse(response.body);
    expect(result.verdict).toBe('ham');
  });

  it('when a hybrid check is posted without prefix, both parts run in parallel', async () => {
    const response = await postJson(`${stack.gateway}/api/v1/spam/hybrid-check`, token, {
      email: 'anna.schmidt@example.org',
      title: 'Frage',
      body: 'Wann öffnet die Bibliothek am Samstag?',
    });
    expect(response.status).toBe(200);
    const result = hybridResultSchema.parse(response.body);
    expect(result.mode).toBe('parallel');
    expect(result.text).not.toBeNull();
    expect(result.skipped).toEqual([]);
  });

  it('when a hybrid check carries a filled honeypot, both parts are spam with FORM_HONEYPOT_FILLED', async () => {
    const response = await postJson(`${stack.gateway}/frapi/v1/spam/hybrid-check`, token, {
      email: 'anna.schmidt@example.org',
      title: 'Frage',
      body: 'Wann öffnet die Bibliothek am Samstag?',
      context: { honeypot: 'https://spam.example', seconds_to_submit: 40 },
    });
    expect(response.status).toBe(200);
    const result = hybridResultSchema.parse(response.body);
    expect(result).toMatchObject({ spam: true, verdict: 'spam', score: 1 });
    expect(result.email.reasons.map((r) => r.code)).toContain('FORM_HONEYPOT_FILLED');
    expect(result.text?.reasons.map((r) => r.code)).toContain('FORM_HONEYPOT_FILLED');
    expect(result.text?.engine).toBe('rules');
  });

  it('when mail batch items carry contexts, each is judged by its own and an out-of-range one is refused alone', async () => {
    const response = await postJson(`${stack.gateway}/api/v1/spam/mail/batch`, token, {
      emails: [
        'ham@spam-check.test',
        { email: 'ham@spam-check.test', context: { user_agent: 'curl/8.5.0' } },
        { email: 'ham@spam-check.test', context: { seconds_to_submit: 10_000_001 } },
      ],
    });
    expect(response.status).toBe(200);
    const [plain, bot, invalid] = response.body.results as [
      { verdict: string },
      { verdict: string; reasons: { code: string }[] },
      { error: { code: string; status: number; errors: { path: string }[] } },
    ];
    expect(plain.verdict).toBe('ham');
    expect(bot.verdict).toBe('suspicious');
    expect(bot.reasons.map((r) => r.code)).toContain('FORM_BOT_USER_AGENT');
    expect(invalid.error).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
    expect(invalid.error.errors[0]?.path).toBe('emails.2.context.seconds_to_submit');
  });

  it('when a text check has an out-of-range context, it is 400 VALIDATION_FAILED', async () => {
    const response = await postJson(`${stack.gateway}/deapi/v1/spam/text`, token, {
      title: 'Frage',
      body: 'Hallo',
      context: { user_agent: 'x'.repeat(513) },
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('when the request id is given, every answer echoes it', async () => {
    const response = await postJson(
      `${stack.gateway}/api/v1/spam/mail`,
      token,
      { email: 'a@b.example' },
      { 'x-request-id': 'e2e-trace-42' },
    );
    expect(response.headers.get('x-request-id')).toBe('e2e-trace-42');
    expect(response.body.request_id).toBe('e2e-trace-42');
  });

  it('when no token is sent, it is 401 with a Bearer challenge', async () => {
    const response = await postJson(`${stack.gateway}/api/v1/spam/mail`, undefined, { email: 'a@b.example' });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="spam-check"/);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(problemSchema.parse(response.body).code).toBe('UNAUTHORIZED');
  });

  it('when the token is unknown, it is 401 invalid_token', async () => {
    const response = await postJson(`${stack.gateway}/api/v1/spam/mail`, 'x'.repeat(43), {
      email: 'a@b.example',
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('when the JSON is malformed, it is a 400 problem in the prefix language', async () => {
    const response = await postJson(`${stack.gateway}/deapi/v1/spam/text`, token, '{"title": "x", ');
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const problem = problemSchema.parse(response.body);
    expect(problem).toMatchObject({
      status: 400,
      code: 'MALFORMED_JSON',
      detail: 'Der Anfragerumpf ist kein gültiges JSON.',
    });
  });

  it('when a required field is missing, it is a 400 validation problem naming the field', async () => {
    const response = await postJson(`${stack.gateway}/api/v1/spam/text`, token, { title: 'x', body: null });
    expect(response.status).toBe(400);
    const problem = problemSchema.parse(response.body);
    expect(problem.code).toBe('VALIDATION_FAILED');
    expect(problem.errors?.map((e) => e.path)).toContain('body');
  });

  it('when a field is wrong, its message is in the language of the path, from the gateway and from a detector', async () => {
    // A mail batch item is an address or {email, context}: for neither, zod names no expected type.
    const expected: Record<string, [RegExp, RegExp]> = {
      '/deapi': [/^Ungültige Eingabe: erwartet string/, /^Ungültige Eingabe/],
      '/frapi': [/^Entrée invalide : chaîne de caractères attendu/, /^Entrée invalide/],
      '/api': [/^Invalid input: expected string/, /^Invalid input/],
    };
    for (const [prefix, [message, itemMessage]] of Object.entries(expected)) {
      // The mail body goes to the e-mail detector unparsed (it validates); a batch is validated by the gateway.
      const single = await postJson(`${stack.gateway}${prefix}/v1/spam/mail`, token, { email: 5 });
      const batch = await postJson(`${stack.gateway}${prefix}/v1/spam/mail/batch`, token, { emails: [5] });
      expect(single.status).toBe(400);
      expect(problemSchema.parse(single.body).errors).toEqual([
        { path: 'email', message: expect.stringMatching(message) },
      ]);
      expect(batch.status).toBe(200);
      const item = (batch.body as { results: { error: { errors: { path: string; message: string }[] } }[] })
        .results[0];
      expect(item?.error.errors).toEqual([{ path: 'emails.0', message: expect.stringMatching(itemMessage) }]);
    }
  });

  it.each(['/api/v1/spam/mail', '/deapi/v1/spam/hybrid-check', '/froauth/token'])(
    'when %s is called with GET, it is 405 with Allow: POST',
    async (path) => {
      const response = await request(`${stack.gateway}${path}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    },
  );

  it.each(['/xxapi/v1/spam/mail', '/it/api/v1/spam/mail', '/esoauth/token'])(
    'when the language prefix of %s is not configured, it is 404',
    async (path) => {
      const response = await postJson(`${stack.gateway}${path}`, token, { email: 'a@b.example' });
      expect(response.status).toBe(404);
      expect(problemSchema.parse(response.body).code).toBe('NOT_FOUND');
    },
  );

  it('when the body is not JSON, it is 415', async () => {
    const response = await request(`${stack.gateway}/api/v1/spam/mail`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
      body: 'email=a@b.example',
    });
    expect(response.status).toBe(415);
    expect(problemSchema.parse(response.body).code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });
  it('when the demo admin signs in, it gets spam:admin and manages clients; settings and stats need Redis', async () => {
    const issued = await obtainToken(stack.gateway, '/', {
      client: 'demo-admin',
      secret: 'demo-admin-secret',
      username: 'admin',
      password: 'admin-password',
    });
    expect(issued.status).toBe(200);
    expect(issued.body.scope).toBe('spam:admin');
    const admin = { authorization: `Bearer ${issued.body.access_token}` };
    const listed = await request(`${stack.gateway}/deapi/v1/admin/clients`, { headers: admin });
    expect(listed.status).toBe(200);
    expect((listed.body.clients as { id: string }[]).map((client) => client.id)).toEqual([
      'demo-admin',
      'demo-client',
    ]);
    const settings = await request(`${stack.gateway}/api/v1/admin/clients/demo-client/settings`, {
      headers: admin,
    });
    expect(settings.status).toBe(503);
    expect(problemSchema.parse(settings.body).code).toBe('SERVICE_UNAVAILABLE');
    const forbidden = await request(`${stack.gateway}/api/v1/admin/clients`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(forbidden.status).toBe(403);
  });
});
