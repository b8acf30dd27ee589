import { randomUUID } from 'node:crypto';
import {
  freePort,
  spawnService,
  stopService,
  waitForReady,
  type ServiceProcess,
} from '@spam-check/process-kit';
import { redisUrl, writeBootstrapFile } from '@spam-check/test-support';
import { request, type HttpResult } from './client';
import { removeRunKeys } from './redis-keys';

// The gateway and auth as separate processes over the shared Redis (names unique to this run): faults of the
// token path that only show with the real proxy in front of auth.
describe('the token endpoint through the gateway, under faults', () => {
  const run = randomUUID().slice(0, 8);
  const client = { id: `faults-${run}`, secret: `secret-${randomUUID()}` };
  const user = { username: `user-${run}`, password: `pw-${randomUUID()}` };
  let auth: ServiceProcess;
  let gateway: ServiceProcess;

  beforeAll(async () => {
    const gatewayClient = { id: `gateway-${run}`, secret: `gateway-${randomUUID()}` };
    const bootstrap = writeBootstrapFile({
      clients: [
        { id: client.id, secret: client.secret },
        { id: gatewayClient.id, secret: gatewayClient.secret, grants: [], scopes: ['auth:introspect'] },
      ],
      users: [user],
    });
    const [authPort, gatewayPort, managementPort] = await Promise.all([freePort(), freePort(), freePort()]);
    const shared = {
      LOG_LEVEL: 'warn',
      REDIS_URL: redisUrl(),
      GATEWAY_CLIENT_ID: gatewayClient.id,
      GATEWAY_CLIENT_SECRET: gatewayClient.secret,
    };
    auth = spawnService(
      'auth',
      {
        ...shared,
        AUTH_BOOTSTRAP_FILE: bootstrap,
        AUTH_REDIS_PREFIX: `faults-${run}:auth:`,
        AUTH_REVOCATION_CHANNEL: `faults-${run}:revocations`,
        AUTH_SCRYPT_COST: '1024',
        AUTH_LOGIN_MAX_FAILURES_PER_USER: '100',
        AUTH_LOGIN_MAX_FAILURES_PER_IP: '3',
      },
      authPort,
    );
    gateway = spawnService(
      'gateway',
      {
        ...shared,
        AUTH_URL: auth.url,
        AUTH_TIMEOUT_MS: '1000',
        REDIS_KEY_PREFIX: `faults-${run}:gateway:`,
        REVOCATION_CHANNEL: `faults-${run}:revocations`,
        AMQP_URL: undefined,
        GATEWAY_MANAGEMENT_PORT: String(managementPort),
      },
      gatewayPort,
    );
    await waitForReady(auth);
    // The gateway's readiness also asks the detectors, which this test does not need.
    for (let i = 0; i < 200; i++) {
      if ((await fetch(`${gateway.url}/livez`).catch(() => undefined))?.ok) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 60_000);

  afterAll(async () => {
    auth?.child.kill('SIGCONT');
    await Promise.all([gateway, auth].filter(Boolean).map(stopService));
    await removeRunKeys(`faults-${run}:`);
  });

  const token = (form: Record<string, string>, headers: Record<string, string> = {}): Promise<HttpResult> =>
    request(`${gateway.url}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
        ...headers,
      },
      body: new URLSearchParams(form),
    });
  const login = (password = user.password, headers: Record<string, string> = {}, username = user.username) =>
    token({ grant_type: 'password', username, password }, headers);
  const refresh = (refreshToken: string) =>
    token({ grant_type: 'refresh_token', refresh_token: refreshToken });

  it('when a refresh gets 503 because auth stalled past the gateway deadline, the retry keeps the session', async () => {
    const issued = await login();
    expect(issued.status).toBe(200);

    auth.child.kill('SIGSTOP');
    let timedOut: HttpResult;
    try {
      timedOut = await refresh(issued.body.refresh_token);
    } finally {
      auth.child.kill('SIGCONT');
    }
    expect(timedOut.status).toBe(503);
    expect(timedOut.body.error).toBe('temporarily_unavailable');
    expect(Number(timedOut.headers.get('retry-after'))).toBeGreaterThan(0);
    // Let auth run what it received while stopped before the client retries.
    await new Promise((resolve) => setTimeout(resolve, 1000));

    const retried = await refresh(issued.body.refresh_token);
    expect(retried.status).toBe(200);
    expect(retried.body.refresh_token).toEqual(expect.any(String));
    // The family is alive: the new refresh token rotates again.
    expect((await refresh(retried.body.refresh_token)).status).toBe(200);
  });

  it('when a client sends its own X-Forwarded-For, it does not escape the per-IP login limit', async () => {
    for (let i = 0; i < 3; i++) expect((await login('wrong', {}, `nobody-${i}-${run}`)).status).toBe(400);
    expect((await login()).status).toBe(429);
    const spoofed = await login(user.password, { 'X-Forwarded-For': '203.0.113.77' });
    expect(spoofed.status).toBe(429);
    expect(spoofed.body.error).toBe('invalid_request');
    expect(Number(spoofed.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
