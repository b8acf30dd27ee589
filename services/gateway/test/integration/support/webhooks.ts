import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import { freePort, spawnService, stopService, waitForReady } from '@spam-check/process-kit';
import { verifyWebhook } from '@spam-check/middleware';
import { removeKeysUnder, redisUrl } from '@spam-check/test-support';
import { Redis } from 'ioredis';
import { Webhook } from 'standardwebhooks';
import {
  json,
  mailResult,
  sendJson,
  startGatewayForTest,
  startScriptedServer,
  textResult,
  type RecordedRequest,
  type Running,
  type RunningGateway,
} from './servers';

const ADMIN = {
  client: 'demo-admin',
  secret: 'demo-admin-secret',
  username: 'admin',
  password: 'admin-password',
};
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

/** Polls until `ready()` holds; fails naming `what` after `timeoutMs` (a bound, not a measurement). */
export async function waitFor(what: string, ready: () => boolean | Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A webhook receiver on loopback whose answer the test scripts per request; it records every request. */
export async function startReceiver(answer: (request: RecordedRequest, index: number) => number | 'hang') {
  const held: http.ServerResponse[] = [];
  const receiver = await startScriptedServer((request, res) => {
    const status = answer(request, receiver.requests.length - 1);
    if (status === 'hang') held.push(res);
    else sendJson(res, status, {}, 'application/json');
  });
  return {
    ...receiver,
    held,
    release: () => held.splice(0).forEach((res) => sendJson(res, 200, {})),
  };
}

/** The deliveries a receiver accepted (2xx), verified with both the middleware and `standardwebhooks`. */
export function verified(request: RecordedRequest, secret: string) {
  const byMiddleware = verifyWebhook(secret, request.headers, request.body);
  const byPackage = new Webhook(secret).verify(request.body, {
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': String(request.headers['webhook-signature']),
  });
  expect(byPackage).toEqual(byMiddleware);
  return byMiddleware;
}

/**
 * The gateway with webhooks: the real auth service (its demo admin, clients in memory), detectors on loopback
 * whose text verdict is the text's title (`spam`, `suspicious`, else ham), real Redis under a prefix of the
 * run; `gateway(env)` starts gateways against them. `stop` removes every key of the run.
 */
export async function startWebhookStack() {
  const run = randomUUID().slice(0, 8);
  const prefix = `webhooks-${run}:`;
  const redis = new Redis(redisUrl());
  const authPort = await freePort();
  const auth = spawnService(
    'auth',
    { LOG_LEVEL: 'warn', AUTH_SCRYPT_COST: '1024', REDIS_URL: undefined },
    authPort,
  );
  await waitForReady(auth);
  const text = await startScriptedServer((request, res) => {
    if (request.url === '/v1/feedback') return sendJson(res, 200, { applied: true });
    if (request.url !== '/v1/check') return sendJson(res, 404, {});
    const title = String((JSON.parse(request.body) as { title?: unknown }).title);
    sendJson(res, 200, textResult(title === 'spam' || title === 'suspicious' ? title : 'ham'));
  });
  const email = await startScriptedServer((request, res) =>
    request.url === '/v1/feedback'
      ? sendJson(res, 200, { applied: true })
      : sendJson(res, 200, mailResult(false)),
  );
  const started: Running[] = [];

  const gateway = async (env: Record<string, string | undefined>): Promise<RunningGateway> => {
    const running = await startGatewayForTest({
      AUTH_URL: auth.url,
      EMAIL_DETECTOR_URL: email.url,
      TEXT_DETECTOR_URL: text.url,
      REDIS_URL: redisUrl(),
      REDIS_KEY_PREFIX: `${prefix}gateway:`,
      CLIENT_SETTINGS_PREFIX: `${prefix}settings:`,
      CLIENT_SETTINGS_CHANNEL: `${prefix}settings`,
      REVOCATION_CHANNEL: `${prefix}revocations`,
      ...env,
    });
    // Stopped by a test or at the end, whichever comes first.
    let stopping: Promise<void> | undefined;
    const once = { ...running, stop: () => (stopping ??= running.stop()) };
    started.push(once);
    return once;
  };

  const token = async (base: string, body: Record<string, string>, id: string, secret: string) => {
    const answer = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { authorization: basic(id, secret), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(body),
    });
    const parsed = await json(answer);
    if (answer.status !== 200) throw new Error(`no token: ${answer.status} ${JSON.stringify(parsed)}`);
    return parsed.access_token as string;
  };

  /** A client of the admin API on `base`, and a new site client with its own check token. */
  const admin = async (base: string) => {
    const adminToken = await token(
      base,
      { grant_type: 'password', username: ADMIN.username, password: ADMIN.password },
      ADMIN.client,
      ADMIN.secret,
    );
    /** An admin API call; `api` is the path's language prefix (`/api`, `/deapi`, `/frapi`). */
    const call = async (method: string, path: string, body?: unknown, api = '/api') => {
      const answer = await fetch(`${base}${api}/v1/admin${path}`, {
        method,
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: answer.status, body: await json(answer) };
    };
    const site = async () => {
      const id = `site-${randomUUID().slice(0, 8)}`;
      const created = await call('POST', '/clients', {
        id,
        grants: ['client_credentials'],
        scopes: ['spam:check'],
      });
      if (created.status !== 201) throw new Error(`client not created: ${JSON.stringify(created.body)}`);
      const checkToken = await token(
        base,
        { grant_type: 'client_credentials' },
        id,
        created.body.client_secret,
      );
      const check = async (title: string) => {
        const answer = await fetch(`${base}/api/v1/spam/text`, {
          method: 'POST',
          headers: { authorization: `Bearer ${checkToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ title, body: 'Some words of a comment on a page of the site.' }),
        });
        return { status: answer.status, body: await json(answer) };
      };
      const hooks = async (webhooks: object[]) => call('PUT', `/clients/${id}/settings`, { webhooks });
      const report = async (label: 'spam' | 'ham', checkId: string) => {
        const answer = await fetch(`${base}/api/v1/spam/feedback`, {
          method: 'POST',
          headers: { authorization: `Bearer ${checkToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ check_id: checkId, label }),
        });
        return { status: answer.status, body: await json(answer) };
      };
      const deliveries = async (webhookId: string) =>
        (await call('GET', `/clients/${id}/webhooks/${webhookId}/deliveries`)).body.deliveries as any[];
      return { id, check, report, hooks, deliveries, checkToken };
    };
    return { call, site };
  };

  return {
    prefix,
    redis,
    gateway,
    admin,
    stop: async () => {
      await Promise.all(started.map((running) => running.stop()));
      await Promise.all([stopService(auth), text.stop(), email.stop()]);
      await removeKeysUnder(redis, prefix);
      redis.disconnect();
    },
  };
}

/** A free loopback port with nothing listening on it yet, and a way to start listening there later. */
export async function laterReceiver() {
  const port = await freePort();
  const server = http.createServer();
  return {
    url: `http://127.0.0.1:${port}/hook`,
    listen: async (onRequest: http.RequestListener) => {
      server.on('request', onRequest);
      server.listen(port, '127.0.0.1');
      await once(server, 'listening');
    },
    stop: async () => {
      server.closeAllConnections();
      if (server.listening) await new Promise((resolve) => server.close(resolve));
    },
  };
}
