import { randomUUID } from 'node:crypto';
import { hybridResultSchema } from '@spam-check/contracts';
import { startStack, type Stack } from '@spam-check/process-kit';
import { amqpUrl, redisUrl, runAccount, runQueueEnv, runStackEnv } from '@spam-check/test-support';
import { obtainToken, postJson, request } from './client';
import { removeRunKeys } from './redis-keys';
import { removeRunQueues } from '../../../services/gateway/test/integration/support/queues';

// The stack with its real dependencies: tokens in Redis, revocations over Redis pub/sub, step-by-step
// hybrid checks over RabbitMQ RPC. Every name is unique to this run, so it shares Redis and RabbitMQ safely.
describe('the stack with Redis and RabbitMQ, end to end over HTTP', () => {
  const run = randomUUID().slice(0, 8);
  const credentials = runAccount(`e2e-client-${run}`);
  let stack: Stack;

  beforeAll(async () => {
    const runEnv = runStackEnv(`e2e-${run}:`, {
      clients: [
        {
          id: credentials.client,
          secret: credentials.secret,
          grants: ['password', 'refresh_token'],
          scopes: ['spam:check'],
        },
      ],
      users: [{ username: credentials.username, password: credentials.password }],
    });
    stack = await startStack({
      REDIS_URL: redisUrl(),
      AMQP_URL: amqpUrl(),
      ...runEnv,
      ...runQueueEnv(`e2e-${run}:`),
      EMAIL_DNS_CHECK: 'off',
      OPENAI_API_KEY: undefined,
    });
  }, 90_000);

  afterAll(async () => {
    await stack?.stop();
    await removeRunKeys(`e2e-${run}:`);
    await removeRunQueues(`e2e-${run}:`);
  });

  async function token(): Promise<{ access_token: string; refresh_token: string }> {
    const issued = await obtainToken(stack.gateway, '/fr/', credentials);
    expect(issued.status).toBe(200);
    return issued.body;
  }

  /** A hybrid check at `path` with the step-by-step header set to `stepByStep`, with a fresh token. */
  const hybridCheck = async (path: string, body: object, stepByStep: string) =>
    postJson(`${stack.gateway}${path}`, (await token()).access_token, body, {
      'X-Internal-Step-By-Step': stepByStep,
    });
  const answeredHybrid = async (path: string, body: object, stepByStep: string) => {
    const response = await hybridCheck(path, body, stepByStep);
    expect(response.status).toBe(200);
    return hybridResultSchema.parse(response.body);
  };
  /** A form to the gateway's OAuth `endpoint` (token, revoke) with the client's credentials in the body. */
  const oauthForm = (endpoint: string, form: Record<string, string>) =>
    request(`${stack.gateway}/oauth/${endpoint}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        ...form,
        client_id: credentials.client,
        client_secret: credentials.secret,
      }),
    });

  it('when the e-mail is spam in step-by-step mode, the text is skipped', async () => {
    const result = await answeredHybrid(
      '/deapi/v1/spam/hybrid-check',
      { email: 'kein gültiges@', title: 'Hallo', body: 'Schöner Beitrag.' },
      'yes',
    );
    expect(result).toMatchObject({ mode: 'step_by_step', spam: true, text: null, skipped: ['text'] });
  });

  it('when the e-mail is clean in step-by-step mode, the text is checked too', async () => {
    const result = await answeredHybrid(
      '/api/v1/spam/hybrid-check',
      { email: 'anna.schmidt@example.org', title: 'Frage', body: 'Wann öffnet die Bibliothek?' },
      ' TRUE ',
    );
    expect(result.mode).toBe('step_by_step');
    expect(result.text?.verdict).toBeDefined();
    expect(result.skipped).toEqual([]);
  });

  it('when the header has another value, it is 400', async () => {
    const response = await hybridCheck(
      '/api/v1/spam/hybrid-check',
      { email: 'a@example.org', title: '', body: '' },
      'maybe',
    );
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('INVALID_HEADER');
  });

  it('when a refresh token is rotated, the old one is refused and revokes the family', async () => {
    const first = await token();
    const refresh = () =>
      oauthForm('token', { grant_type: 'refresh_token', refresh_token: first.refresh_token });
    const rotated = await refresh();
    expect(rotated.status).toBe(200);
    expect(rotated.body.refresh_token).not.toBe(first.refresh_token);
    const reused = await refresh();
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe('invalid_grant');
    const check = await postJson(`${stack.gateway}/api/v1/spam/mail`, rotated.body.access_token, {
      email: 'a@example.org',
    });
    expect(check.status).toBe(401);
  });

  it('when a token is revoked, the gateway refuses it within a second', async () => {
    const { access_token } = await token();
    const before = await postJson(`${stack.gateway}/api/v1/spam/mail`, access_token, {
      email: 'a@example.org',
    });
    expect(before.status).toBe(200);
    const revoked = await oauthForm('revoke', { token: access_token });
    expect(revoked.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const after = await postJson(`${stack.gateway}/api/v1/spam/mail`, access_token, {
      email: 'a@example.org',
    });
    expect(after.status).toBe(401);
  });
});
