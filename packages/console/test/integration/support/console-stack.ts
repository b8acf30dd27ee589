import { randomUUID } from 'node:crypto';
import { freePort, spawnService, startStack, type Stack } from '@spam-check/process-kit';
import { launchBrowser, redisUrl, removeKeysUnder, writeBootstrapFile } from '@spam-check/test-support';
import { redisConsoleSessions } from '../../../src';
import { Redis } from 'ioredis';
import { type Browser } from 'playwright-core';

/**
 * The gateways' deadline for auth (default 2 s): a console request signs in or refreshes a token there, and
 * with a browser and five services on a loaded machine auth's answer took longer than 2 s (a 503, rightly).
 */
const AUTH_TIMEOUT_MS = '10000';

export async function json(url: string, init: RequestInit = {}) {
  const response = await fetch(url, init);
  return { status: response.status, body: (await response.json()) as any };
}

/**
 * The operator console's stack, started before the calling suite's tests and stopped after them: the four
 * services as processes with real Redis (this run's prefixes, removed afterwards), the console client, a site's
 * client and user, and Debian's Chromium. `state` holds the running stack and browser during the tests.
 */
/**
 * The console's sign-in form POSTed to the gateway at `gateway` as a browser on its page sends it (its own
 * origin unless `headers` say otherwise), without following the redirect.
 */
export function postSignIn(
  gateway: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
) {
  return fetch(`${gateway}/console/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: gateway, ...headers },
    body: new URLSearchParams(form),
  });
}

export function consoleStackForSuite() {
  const run = randomUUID().slice(0, 8);
  const consoleClient = { id: `console-${run}`, secret: `console-${randomUUID()}` };
  const admin = { username: `root-${run}`, password: `pw-${randomUUID()}` };
  const web = { id: `web-${run}`, secret: `web-${randomUUID()}` };
  const user = { username: `user-${run}`, password: `pw-${randomUUID()}` };
  const authPrefix = `console-${run}:auth:`;
  const gatewayPrefix = `console-${run}:gateway:`;
  const state = {} as { stack: Stack; redis: Redis; browser: Browser; base: string };

  const apiToken = async () => {
    const answer = await json(`${state.stack.gateway}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${web.id}:${web.secret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'password', ...user }),
    });
    expect(answer.status).toBe(200);
    return answer.body.access_token as string;
  };
  const check = (token: string, kind: 'mail' | 'text', body: object) =>
    json(`${state.stack.gateway}/api/v1/spam/${kind}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  // What the gateway keeps for a cookie, read as the gateway reads it (encrypted under the cookie id).
  const storedSession = (cookie: string) => redisConsoleSessions(state.redis, gatewayPrefix).read(cookie);
  /** One more gateway process of this state.stack (same auth, detectors, Redis prefix and console client). */
  const anotherGateway = async (env: Record<string, string> = {}) => {
    const [port, management] = await Promise.all([freePort(), freePort()]);
    return spawnService(
      'gateway',
      {
        LOG_LEVEL: 'warn',
        GATEWAY_MANAGEMENT_PORT: String(management),
        AUTH_URL: state.stack.services.auth.url,
        EMAIL_DETECTOR_URL: state.stack.services['email-detector'].url,
        TEXT_DETECTOR_URL: state.stack.services['text-detector'].url,
        REDIS_URL: redisUrl(),
        REDIS_KEY_PREFIX: gatewayPrefix,
        REVOCATION_CHANNEL: `console-${run}:revocations`,
        CONSOLE_CLIENT_ID: consoleClient.id,
        CONSOLE_CLIENT_SECRET: consoleClient.secret,
        AUTH_TIMEOUT_MS,
        ...env,
      },
      port,
    );
  };

  beforeAll(async () => {
    const bootstrap = writeBootstrapFile({
      clients: [
        { ...consoleClient, grants: ['password', 'refresh_token'], scopes: ['spam:admin'] },
        { ...web, grants: ['password', 'refresh_token'], scopes: ['spam:check'] },
      ],
      users: [{ ...admin, scopes: ['spam:admin'] }, user],
    });
    state.redis = new Redis(redisUrl());
    state.stack = await startStack(
      {
        REDIS_URL: redisUrl(),
        AUTH_BOOTSTRAP_FILE: bootstrap,
        AUTH_REDIS_PREFIX: authPrefix,
        REDIS_KEY_PREFIX: gatewayPrefix,
        // The detectors' feedback records under this run's prefix too: `afterAll` removes all of it.
        EMAIL_FEEDBACK_PREFIX: `console-${run}:email-feedback:`,
        TEXT_FEEDBACK_PREFIX: `console-${run}:text-feedback:`,
        AUTH_REVOCATION_CHANNEL: `console-${run}:revocations`,
        REVOCATION_CHANNEL: `console-${run}:revocations`,
        CONSOLE_CLIENT_ID: consoleClient.id,
        CONSOLE_CLIENT_SECRET: consoleClient.secret,
        // One proxy of ours in front (as behind the ingress): the console must pass on the browser's address.
        TRUSTED_PROXY_HOPS: '1',
        AUTH_LOGIN_MAX_FAILURES_PER_IP: '4',
        // Under the console's refresh margin (60 s): every console request refreshes its access token.
        AUTH_ACCESS_TOKEN_LIFETIME_SECONDS: '50',
        EMAIL_DNS_CHECK: 'off',
        // Every sign-in and token refresh verifies two scrypt hashes: at the default cost a loaded machine
        // takes longer than AUTH_TIMEOUT_MS for them, and the console answers 503 instead of the page.
        AUTH_SCRYPT_COST: '1024',
        AUTH_TIMEOUT_MS,
        OPENAI_API_KEY: undefined,
        TEXT_LLM_MODE: 'never',
      },
      { readyTimeoutMs: 60_000 },
    );
    state.base = `${state.stack.gateway}/console`;
    state.browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await state.browser?.close();
    await state.stack?.stop();
    if (state.redis) {
      await removeKeysUnder(state.redis, `console-${run}:`);
      await state.redis.del(`spam-check:client-settings:${web.id}`);
      state.redis.disconnect();
    }
  });
  return {
    run,
    consoleClient,
    admin,
    web,
    user,
    authPrefix,
    gatewayPrefix,
    state,
    apiToken,
    check,
    storedSession,
    anotherGateway,
  };
}
