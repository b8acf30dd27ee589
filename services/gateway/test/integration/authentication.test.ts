import { randomUUID } from 'node:crypto';
import { freePort } from '@spam-check/process-kit';
import { redisUrl, removeKeysUnder } from '@spam-check/test-support';
import { Redis } from 'ioredis';
import {
  NARROW_CLIENT,
  delay,
  json,
  obtainToken,
  sendJson,
  startGatewayForTest,
  startScriptedServer,
  type Running,
  type RunningGateway,
} from './support/servers';
import { startHamDetector, startStack, type ScriptedServer, type Stack } from './support/stack';

const mailCheck = (gateway: Running, token?: string) =>
  fetch(`${gateway.url}/api/v1/spam/mail`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ email: 'someone@example.org' }),
  });

const revoke = (gateway: Running, token: string) =>
  fetch(`${gateway.url}/froauth/revoke`, {
    method: 'POST',
    headers: {
      Authorization: `Basic ${Buffer.from('test-client:test-client-secret').toString('base64')}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ token }).toString(),
  });

async function tokenLookups(gateway: RunningGateway, outcome: 'cache_hit' | 'introspected'): Promise<number> {
  const metrics = await (await fetch(`${gateway.managementUrl}/metrics`)).text();
  const line = metrics
    .split('\n')
    .find((l) => l.startsWith(`gateway_token_lookups_total{outcome="${outcome}"`));
  return line ? Number(line.split(' ').at(-1)) : 0;
}
const cacheHits = (gateway: RunningGateway) => tokenLookups(gateway, 'cache_hit');

async function waitReady(gateway: RunningGateway): Promise<void> {
  for (let i = 0; i < 100; i += 1) {
    if ((await fetch(`${gateway.managementUrl}/readyz`)).ok) return;
    await delay(50);
  }
  throw new Error(`gateway not ready: ${await (await fetch(`${gateway.managementUrl}/readyz`)).text()}`);
}

describe('bearer token validation against the real auth service (embedded)', () => {
  let stack: Stack;
  let gateway: Running;

  beforeAll(async () => {
    stack = await startStack();
    gateway = await stack.gateway();
  });
  afterAll(() => stack.stop());

  it('when no token is sent, it is 401 UNAUTHORIZED with a bare Bearer challenge', async () => {
    const response = await mailCheck(gateway);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="spam-check"');
    expect((await json(response)).code).toBe('UNAUTHORIZED');
  });

  it('when the token is unknown, it is 401 INVALID_TOKEN with error="invalid_token"', async () => {
    const response = await mailCheck(gateway, 'not-a-real-token');
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="spam-check", error="invalid_token"');
    expect((await json(response)).code).toBe('INVALID_TOKEN');
  });

  it('when the token lacks the spam:check scope, it is 403 INSUFFICIENT_SCOPE', async () => {
    const token = await obtainToken(gateway.url, NARROW_CLIENT);
    const response = await mailCheck(gateway, token);
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toBe(
      'Bearer realm="spam-check", error="insufficient_scope", scope="spam:check"',
    );
    expect((await json(response)).code).toBe('INSUFFICIENT_SCOPE');
  });

  it('when a valid token is sent, the check passes and the detector sees the client id', async () => {
    const token = await obtainToken(gateway.url);
    const response = await mailCheck(gateway, token);
    expect(response.status).toBe(200);
    expect(stack.email.requests.at(-1)!.headers['x-client-id']).toBe('test-client');
  });

  it('when the token endpoint is called under a language prefix, auth answers RFC 6749 errors in that language', async () => {
    const ask = (path: string) =>
      fetch(`${gateway.url}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=password&username=alice&password=wrong&client_id=test-client&client_secret=test-client-secret',
      });
    const german = await ask('/deoauth/token');
    const french = await ask('/fr/oauth/token');
    expect(german.status).toBe(400);
    const [de, fr] = [await json(german), await json(french)];
    expect(de.error).toBe('invalid_grant');
    expect(fr.error).toBe('invalid_grant');
    expect(de.error_description).not.toBe(fr.error_description);
    expect(german.headers.get('cache-control')).toBe('no-store');
  });

  it('without Redis, a revoked token is refused once its short cache entry (1 s) has expired', async () => {
    const token = await obtainToken(gateway.url);
    expect((await mailCheck(gateway, token)).status).toBe(200);
    expect((await revoke(gateway, token)).status).toBe(200);
    await delay(1100);
    expect((await mailCheck(gateway, token)).status).toBe(401);
  });
});

describe('unknown bearer tokens per client address (FAILED_TOKEN_LIMIT)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.stop());
  const randomToken = () => randomUUID().replace(/-/g, '');

  it('when an address has sent FAILED_TOKEN_LIMIT unknown tokens, its unknown tokens get 429 with Retry-After; valid tokens from it still pass', async () => {
    const gateway = await stack.gateway({
      FAILED_TOKEN_LIMIT: '3',
      FAILED_TOKEN_WINDOW_SECONDS: '60',
      TOKEN_CACHE_TTL_MS: '60000',
    });
    const valid = await obtainToken(gateway.url);
    expect((await mailCheck(gateway, valid)).status).toBe(200);
    const seen = randomToken();
    for (const token of [seen, randomToken(), randomToken()])
      expect((await mailCheck(gateway, token)).status).toBe(401);

    for (let i = 0; i < 3; i += 1) {
      const refused = await mailCheck(gateway, randomToken());
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect((await json(refused)).code).toBe('RATE_LIMITED');
    }
    const burst = await Promise.all(Array.from({ length: 20 }, () => mailCheck(gateway, randomToken())));
    expect(burst.map((answer) => answer.status)).toEqual(Array(20).fill(429));
    // A token of another client from the same address, not cached yet, gets its answer.
    expect((await mailCheck(gateway, await obtainToken(gateway.url))).status).toBe(200);
    expect((await mailCheck(gateway, valid)).status).toBe(200);
    expect((await mailCheck(gateway, seen)).status).toBe(401);
  });

  it('with Redis, the failures an address had at one replica count at the other', async () => {
    const env = { REDIS_URL: redisUrl(), REDIS_KEY_PREFIX: `test:${randomUUID()}:`, FAILED_TOKEN_LIMIT: '3' };
    const [first, second] = [await stack.gateway(env), await stack.gateway(env)];
    expect((await mailCheck(first, randomToken())).status).toBe(401);
    expect((await mailCheck(first, randomToken())).status).toBe(401);
    expect((await mailCheck(second, randomToken())).status).toBe(401);
    expect((await mailCheck(second, randomToken())).status).toBe(429);
    // The first replica has not seen the third failure: it asks once more, learns, and refuses.
    expect((await mailCheck(first, randomToken())).status).toBe(401);
    expect((await mailCheck(first, randomToken())).status).toBe(429);
  });
});

describe('bearer token validation when the auth service misbehaves', () => {
  let detector: ScriptedServer;
  beforeAll(async () => {
    detector = await startHamDetector('mail');
  });
  afterAll(() => detector.stop());

  async function expectUnavailable(authUrl: string, extra: Record<string, string> = {}) {
    const gateway = await startGatewayForTest({
      AUTH_URL: authUrl,
      EMAIL_DETECTOR_URL: detector.url,
      ...extra,
    });
    try {
      const before = detector.requests.length;
      const response = await mailCheck(gateway, 'some-token');
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect((await json(response)).code).toBe('SERVICE_UNAVAILABLE');
      expect(detector.requests).toHaveLength(before);
    } finally {
      await gateway.stop();
    }
  }

  it('when the auth service is down, it is 503 and the check never runs', async () => {
    await expectUnavailable(`http://127.0.0.1:${await freePort()}`);
  });

  it('when the auth service answers 500, it is 503', async () => {
    const auth = await startScriptedServer((_req, res) => sendJson(res, 500, { error: 'boom' }));
    await expectUnavailable(auth.url).finally(() => auth.stop());
  });

  it('when the auth service answers garbage, it is 503', async () => {
    const auth = await startScriptedServer((_req, res) => sendJson(res, 200, '{"active": tru'));
    await expectUnavailable(auth.url).finally(() => auth.stop());
  });

  it('when the auth service is slower than AUTH_TIMEOUT_MS, it is 503', async () => {
    const auth = await startScriptedServer(async (_req, res) => {
      await delay(1500);
      sendJson(res, 200, { active: false });
    });
    await expectUnavailable(auth.url, { AUTH_TIMEOUT_MS: '200' }).finally(() => auth.stop());
  });

  it('when the token endpoint cannot reach auth, it answers temporarily_unavailable with 503', async () => {
    const gateway = await startGatewayForTest({ AUTH_URL: `http://127.0.0.1:${await freePort()}` });
    try {
      const response = await fetch(`${gateway.url}/deoauth/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=password&username=a&password=b',
      });
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect((await json(response)).error).toBe('temporarily_unavailable');
    } finally {
      await gateway.stop();
    }
  });
});

describe('revocation eviction over Redis pub/sub', () => {
  let stack: Stack;
  let gateway: RunningGateway;
  const unique = randomUUID();

  beforeAll(async () => {
    const channel = `test:gateway:revocations:${unique}`;
    const gatewayClient = { GATEWAY_CLIENT_ID: 'gateway-under-test', GATEWAY_CLIENT_SECRET: unique };
    stack = await startStack({
      REDIS_URL: redisUrl(),
      AUTH_REDIS_PREFIX: `test:gateway-auth:${unique}:`,
      AUTH_REVOCATION_CHANNEL: channel,
      ...gatewayClient,
    });
    gateway = await stack.gateway({
      REDIS_URL: redisUrl(),
      REDIS_KEY_PREFIX: `test:gateway:${unique}:`,
      REVOCATION_CHANNEL: channel,
      TOKEN_CACHE_TTL_MS: '600000',
      ...gatewayClient,
    });
    await waitReady(gateway);
  });
  afterAll(async () => {
    await stack.stop();
    const redis = new Redis(redisUrl());
    for (const prefix of [`test:gateway-auth:${unique}:`, `test:gateway:${unique}:`])
      await removeKeysUnder(redis, prefix);
    redis.disconnect();
  });

  it('when a cached token is revoked at the auth service, the gateway refuses it long before its cache entry expires', async () => {
    const token = await obtainToken(gateway.url);
    expect((await mailCheck(gateway, token)).status).toBe(200);
    const hitsBefore = await cacheHits(gateway);
    expect((await mailCheck(gateway, token)).status).toBe(200);
    expect(await cacheHits(gateway)).toBe(hitsBefore + 1);

    expect((await revoke(gateway, token)).status).toBe(200);
    // The cache keeps an answer for 10 minutes (TOKEN_CACHE_TTL_MS): a refusal within the test's time can only
    // come from the eviction the revocation announced, however long a loaded machine takes to deliver it.
    let status = 200;
    while (status === 200) {
      status = (await mailCheck(gateway, token)).status;
      if (status === 200) await delay(20);
    }
    expect(status).toBe(401);
  });
});
