import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { startStack, type Stack } from '@spam-check/process-kit';
import { redisUrl, runStackEnv } from '@spam-check/test-support';
import { Redis } from 'ioredis';
import { postJson, request, type HttpResult } from './client';
import { removeRunKeys } from './redis-keys';

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

// An attacker's failures cost the attacker, not the gateway's own calls and not other
// clients with valid credentials. Auth, the e-mail detector and the gateway as separate processes; the
// gateway trusts one proxy hop, so a test's X-Forwarded-For entry plays the client's address.
describe('what an attacker failing to authenticate costs, end to end', () => {
  const run = randomUUID().slice(0, 8);
  const client = { id: `costs-${run}`, secret: `secret-${randomUUID()}` };
  const user = { username: `user-${run}`, password: `pw-${randomUUID()}` };
  const admin = {
    id: `admin-${run}`,
    secret: `admin-${randomUUID()}`,
    username: `root-${run}`,
    password: `pw-${randomUUID()}`,
  };
  const settingsPrefix = `costs-${run}:settings:`;
  const authPrefix = `costs-${run}:auth:`;
  let stack: Stack<'auth' | 'email-detector' | 'gateway'>;

  beforeAll(async () => {
    stack = await startStack(
      {
        REDIS_URL: redisUrl(),
        AMQP_URL: undefined,
        ...runStackEnv(`costs-${run}:`, {
          clients: [
            { id: client.id, secret: client.secret },
            { id: admin.id, secret: admin.secret, grants: ['password'], scopes: ['spam:admin'] },
          ],
          users: [user, { username: admin.username, password: admin.password, scopes: ['spam:admin'] }],
        }),
        CLIENT_SETTINGS_PREFIX: settingsPrefix,
        CLIENT_SETTINGS_CHANNEL: `costs-${run}:settings`,
        AUTH_SCRYPT_COST: '1024',
        // Every introspection authenticates the gateway again (no 30 s cache hides a refusal).
        AUTH_CLIENT_AUTH_CACHE_SECONDS: '0',
        AUTH_LOGIN_MAX_FAILURES_PER_USER: '100',
        AUTH_LOGIN_MAX_FAILURES_PER_IP: '5',
        AUTH_CLIENT_MAX_FAILURES: '3',
        TRUSTED_PROXY_HOPS: '1',
        FAILED_TOKEN_LIMIT: '3',
        TOKEN_CACHE_TTL_MS: '60000',
      },
      { services: ['auth', 'email-detector', 'gateway'], readyTimeoutMs: 150_000 },
    );
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
    await removeRunKeys(`costs-${run}:`);
  });

  const from = (address: string) => ({ 'x-forwarded-for': address });
  /** A form to the gateway's OAuth `endpoint` (token, revoke) with Basic `authorization`, sent for `address`. */
  const oauthForm = (
    endpoint: string,
    authorization: string,
    address: string,
    form: Record<string, string>,
  ) =>
    request(`${stack.gateway}/oauth/${endpoint}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization, ...from(address) },
      body: new URLSearchParams(form),
    });
  const login = (address: string, password = user.password, username = user.username): Promise<HttpResult> =>
    oauthForm('token', basic(client.id, client.secret), address, {
      grant_type: 'password',
      username,
      password,
    });
  const accessToken = async (address: string): Promise<string> => {
    const issued = await login(address);
    expect(issued.status).toBe(200);
    return issued.body.access_token as string;
  };
  const mailCheck = (token: string, address: string) =>
    postJson(`${stack.gateway}/api/v1/spam/mail`, token, { email: 'someone@example.com' }, from(address));
  // Straight at auth, from the socket address the gateway's own calls come from.
  const atAuth = (path: string, authorization: string, form: Record<string, string>) =>
    request(`${stack.services.auth.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization },
      body: new URLSearchParams(form),
    });

  it("A: when the gateway's own address floods failed logins and client secrets, the gateway's introspection goes on", async () => {
    const first = await accessToken('198.51.100.1');
    expect((await mailCheck(first, '198.51.100.1')).status).toBe(200);
    const second = await accessToken('198.51.100.1');

    const logins = [];
    for (let i = 0; i < 8; i++)
      logins.push(
        await atAuth('/oauth/token', basic(client.id, client.secret), {
          grant_type: 'password',
          username: `nobody-${i}`,
          password: 'wrong',
        }),
      );
    expect(logins.at(-1)!.status).toBe(429);
    const secrets = [];
    for (let i = 0; i < 8; i++)
      secrets.push(await atAuth('/oauth/revoke', basic(`stranger-${i}`, 'wrong'), { token: 'x' }));
    expect(secrets.at(-1)!.status).toBe(429);

    // `second` is not cached at the gateway: it must be introspected, from the flooded address.
    const checked = await mailCheck(second, '198.51.100.1');
    expect(checked.status).toBe(200);
    expect(checked.body.verdict).toEqual(expect.any(String));
  });

  it('B: when wrong secrets are sent with a client id, its users elsewhere still log in', async () => {
    expect((await login('203.0.113.7')).status).toBe(200);
    const refused = [];
    for (let i = 0; i < 6; i++)
      refused.push(await oauthForm('revoke', basic(client.id, `guess-${i}`), '203.0.113.66', { token: 'x' }));
    expect(refused.slice(0, 3).map((answer) => answer.status)).toEqual([401, 401, 401]);
    expect(refused.at(-1)!.status).toBe(429);

    const elsewhere = await login('203.0.113.8');
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body.access_token).toEqual(expect.any(String));
  });

  it("C: when an address floods unknown bearer tokens, another client's valid token from it is still answered", async () => {
    const valid = await accessToken('203.0.113.20');
    const junk = [];
    for (let i = 0; i < 6; i++) junk.push(await mailCheck(randomUUID().replace(/-/g, ''), '203.0.113.9'));
    expect(junk.slice(0, 3).map((answer) => answer.status)).toEqual([401, 401, 401]);
    expect(junk.slice(3).map((answer) => answer.status)).toEqual([429, 429, 429]);
    expect(Number(junk.at(-1)!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    const checked = await mailCheck(valid, '203.0.113.9');
    expect(checked.status).toBe(200);
  });

  it('G: when one address asks for tokens with random client ids, the counters it leaves in Redis stay bounded', async () => {
    const redis = new Redis(redisUrl());
    try {
      const failKeys = async () => (await redis.keys(`${authPrefix}fail:*`)).length;
      const before = await failKeys();
      const answers = [];
      for (let i = 0; i < 60; i++)
        answers.push(
          await oauthForm('token', basic(`random-${randomUUID()}`, 'wrong'), '203.0.113.30', {
            grant_type: 'password',
            username: 'x',
            password: 'y',
          }),
        );
      expect(answers.at(-1)!.status).toBe(429);
      // The address's counter and one per client id it was let try (AUTH_LOGIN_MAX_FAILURES_PER_IP = 5).
      expect((await failKeys()) - before).toBeLessThanOrEqual(6);
    } finally {
      redis.disconnect();
    }
  });

  it('F: when a client id in an admin path is . or .., it is 400 and reaches neither auth nor the settings', async () => {
    const issued = await oauthForm('token', basic(admin.id, admin.secret), '203.0.113.40', {
      grant_type: 'password',
      username: admin.username,
      password: admin.password,
    });
    expect(issued.status).toBe(200);
    // node:http with a path sends it as written: a URL string (fetch too) would resolve %2e segments first.
    const call = (method: string, path: string, body?: unknown) =>
      new Promise<{ status: number; body: any }>((resolve, reject) => {
        const gateway = new URL(stack.gateway);
        const sent = http.request(
          {
            host: gateway.hostname,
            port: gateway.port,
            path: `/api/v1/admin/clients/${path}`,
            method,
            headers: {
              authorization: `Bearer ${issued.body.access_token}`,
              'content-type': 'application/json',
              ...from('203.0.113.40'),
            },
          },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (text += chunk));
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }),
            );
          },
        );
        sent.on('error', reject);
        sent.end(body === undefined ? undefined : JSON.stringify(body));
      });
    const answers = [
      await call('GET', '%2e%2e/settings'),
      await call('PUT', '%2e/settings', { text: { deny_terms: ['x'] } }),
      await call('PUT', '%2E%2E/settings', { text: { deny_terms: ['x'] } }),
      await call('DELETE', '%2e%2e'),
      await call('POST', '%2e/secret'),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([400, 400, 400, 400, 400]);
    expect(answers[0]!.body.code).toBe('VALIDATION_FAILED');
    const redis = new Redis(redisUrl());
    try {
      expect(await redis.keys(`${settingsPrefix}*`)).toEqual([]);
    } finally {
      redis.disconnect();
    }
    // A real id still works.
    expect((await call('GET', `${client.id}/settings`)).status).toBe(200);
  });
});
