import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { text } from 'node:stream/consumers';
import { startStack, type Stack } from '@spam-check/process-kit';
import {
  keysUnder,
  redisUrl,
  runAccount,
  runClient,
  runUser,
  sharedStackEnv,
} from '@spam-check/test-support';
import { Redis } from 'ioredis';
import { callJson, obtainToken } from './client';
import { removeRunState, runSettingsKeys, stringsOf } from './redis-keys';
import { removeRunQueues } from '../../../services/gateway/test/integration/support/queues';

export interface AkismetAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * The real stack (auth, both detectors, the gateway, Redis, RabbitMQ) for the Akismet endpoints, started
 * before the calling suite's tests and stopped after them, with an administrator who issues keys. The gateway
 * trusts one proxy hop, so each test names its own sender address in `X-Forwarded-For` and brute-force
 * counters of one test never reach another.
 */
type Accounts = Parameters<typeof sharedStackEnv>[1];

export function akismetStackForSuite(extra: Accounts = { clients: [], users: [] }) {
  const run = randomUUID().slice(0, 8);
  const admin = runAccount(`akadmin-${run}`);
  const state = {} as { stack: Stack; adminToken: string };
  const prefix = `ak-${run}:`;

  beforeAll(async () => {
    state.stack = await startStack(
      {
        LOG_LEVEL: 'debug',
        ...sharedStackEnv(prefix, {
          clients: [runClient(admin, ['spam:admin']), ...extra.clients],
          users: [runUser(admin, ['spam:admin']), ...(extra.users ?? [])],
        }),
        TRUSTED_PROXY_HOPS: '1',
        AUTH_CLIENT_MAX_FAILURES: '5',
      },
      { readyTimeoutMs: 150_000 },
    );
    const issued = await obtainToken(state.stack.gateway, '/', admin);
    expect(issued.status).toBe(200);
    state.adminToken = (issued.body as { access_token: string }).access_token;
  }, 200_000);

  afterAll(async () => {
    await state.stack?.stop();
    await removeRunState(run, prefix);
    await removeRunQueues(prefix);
  });

  const adminCall = (method: string, path: string, body?: unknown) =>
    callJson(method, `${state.stack.gateway}/api/v1/admin${path}`, state.adminToken, body);

  /** A new `spam:check` client of this run with an Akismet key. */
  async function clientWithKey(name: string): Promise<{ id: string; key: string }> {
    const id = `${name}-${run}`;
    expect((await adminCall('POST', '/clients', { id, grants: ['client_credentials'] })).status).toBe(201);
    const issued = await adminCall('POST', `/clients/${id}/akismet-key`);
    expect(issued.status).toBe(201);
    return { id, key: (issued.body as { key: string }).key };
  }

  /** An Akismet call as the clients send it: a form, and any Host header (for key-in-subdomain). */
  function akismet(
    method: string,
    form: Record<string, string>,
    options: { host?: string; from?: string } = {},
  ): Promise<AkismetAnswer> {
    const url = new URL(`/1.1/${method}`, state.stack.gateway);
    const body = new URLSearchParams(form).toString();
    return new Promise((resolve, reject) => {
      const req = http.request(
        url,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            'content-length': Buffer.byteLength(body),
            'x-forwarded-for': options.from ?? '198.51.100.1',
            ...(options.host ? { host: options.host } : {}),
          },
        },
        (res) => {
          text(res).then(
            (body) => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }),
            reject,
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  /** Every key name and value this run left in Redis, as one text (to look for what must not be stored). */
  async function everythingStored(): Promise<string> {
    const redis = new Redis(redisUrl());
    try {
      const keys = [...(await keysUnder(redis, prefix)), ...(await runSettingsKeys(redis, run))];
      const values = await Promise.all(keys.map((key) => stringsOf(redis, key)));
      return [...keys, ...values.flat()].join('\n');
    } finally {
      redis.disconnect();
    }
  }

  const logs = () =>
    Object.values(state.stack.services)
      .map((service) => service.output())
      .join('\n');

  return { run, state, adminCall, clientWithKey, akismet, everythingStored, logs };
}
