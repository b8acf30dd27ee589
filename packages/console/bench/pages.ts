import { randomUUID } from 'node:crypto';
import { startStack } from '@spam-check/process-kit';
import { removeKeysUnder, runPrefixEnv } from '@spam-check/test-support';
import { Redis } from 'ioredis';
import { redisConsoleSessions } from '../src';

/**
 * How long each console page takes to answer (aim: within 200 ms), one request at a
 * time, as one operator's browser asks. The four services as processes with Redis (REDIS_URL, else
 * redis://127.0.0.1:6379; own key prefixes, removed at the end), DNS off, the demo admin signed in, a week of
 * a client's real checks behind the charts. Each page is asked ROUNDS times after WARMUP; p50, p95 and the
 * maximum are printed.
 */
const ROUNDS = 30;
const WARMUP = 3;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;

export async function benchPages(): Promise<void> {
  const run = randomUUID().slice(0, 8);
  const prefix = `bench-console-${run}:`;
  const env = runPrefixEnv(prefix);
  const stack = await startStack(
    {
      REDIS_URL,
      AMQP_URL: undefined,
      ...env,
      OPENAI_API_KEY: undefined,
      TEXT_LLM_MODE: 'never',
      EMAIL_DNS_CHECK: 'off',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_REQUESTS: '0',
    },
    { readyTimeoutMs: 60_000 },
  );
  const redis = new Redis(REDIS_URL);
  try {
    const g = stack.gateway;
    // A client of the bench's own (settings keys are not prefixed: never touch a shared client's).
    const client = `bench-console-${run}`;
    const grant = async (credentials: string, extra = {}) =>
      (await (
        await fetch(`${g}/oauth/token`, {
          method: 'POST',
          headers: {
            Authorization: `Basic ${Buffer.from(credentials).toString('base64')}`,
            'Content-Type': 'application/x-www-form-urlencoded',
          },
          body: new URLSearchParams({ grant_type: 'password', ...extra }),
        })
      ).json()) as { access_token: string };
    const admin = await grant('demo-admin:demo-admin-secret', {
      username: 'admin',
      password: 'admin-password',
    });
    const created = (await (
      await fetch(`${g}/api/v1/admin/clients`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin.access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ id: client, grants: ['password'], scopes: ['spam:check'] }),
      })
    ).json()) as { client_secret: string };
    const token = await grant(`${client}:${created.client_secret}`, {
      username: 'demo',
      password: 'demo-password',
    });
    for (let i = 0; i < 50; i += 1)
      await fetch(`${g}/api/v1/spam/mail`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email: i % 3 ? `user${i}@gmx.de` : `user${i}@mailinator.com` }),
      });

    const form = { 'content-type': 'application/x-www-form-urlencoded', origin: g, accept: 'text/html' };
    const signIn = await fetch(`${g}/console/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: form,
      body: 'username=admin&password=admin-password',
    });
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const id = cookie.split('=')[1] as string;
    // The session as the gateway reads it (encrypted in Redis under the cookie's id).
    const session = await redisConsoleSessions(redis, env.REDIS_KEY_PREFIX).read(id);
    if (!session) throw new Error(`no console session after sign-in (status ${signIn.status})`);
    const { csrf } = session;

    const pages: [string, () => Promise<Response>][] = [
      ['GET  /console/sign-in', () => fetch(`${g}/console/sign-in`)],
      ['GET  /console/clients', () => fetch(`${g}/console/clients`, { headers: { cookie } })],
      [
        'GET  /console/clients/<id> (7 days)',
        () => fetch(`${g}/console/clients/${client}`, { headers: { cookie } }),
      ],
      [
        'GET  /de/console/clients/<id>?interval=hour',
        () => fetch(`${g}/de/console/clients/${client}?interval=hour`, { headers: { cookie } }),
      ],
      [
        'POST /console/clients/<id>/settings (303)',
        () =>
          fetch(`${g}/console/clients/${client}/settings`, {
            method: 'POST',
            redirect: 'manual',
            headers: { ...form, cookie },
            body: new URLSearchParams({ csrf, 'text.spam_threshold': '0.8' }),
          }),
      ],
      [
        'POST /console/clients/<id>/try (text)',
        () =>
          fetch(`${g}/console/clients/${client}/try`, {
            method: 'POST',
            headers: { ...form, cookie },
            body: new URLSearchParams({ csrf, kind: 'text', title: 'Hello', body: 'Nice article, thanks!' }),
          }),
      ],
      ['GET  /console/assets/uPlot.iife.min.js', () => fetch(`${g}/console/assets/uPlot.iife.min.js`)],
    ];
    console.log(`console pages, ${ROUNDS} sequential requests each after ${WARMUP} warm-up (ms)`);
    for (const [name, ask] of pages) {
      const times: number[] = [];
      for (let i = 0; i < WARMUP + ROUNDS; i += 1) {
        const started = process.hrtime.bigint();
        const response = await ask();
        await response.arrayBuffer();
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        if (response.status >= 400) throw new Error(`${name}: ${response.status}`);
        if (i >= WARMUP) times.push(ms);
      }
      times.sort((a, b) => a - b);
      const f = (ms: number) => ms.toFixed(1).padStart(6);
      console.log(
        `  ${name.padEnd(52)} p50 ${f(percentile(times, 50))}  p95 ${f(percentile(times, 95))}  max ${f(times.at(-1) as number)}`,
      );
    }
  } finally {
    await stack.stop();
    await redis.del(`spam-check:client-settings:bench-console-${run}`);
    await removeKeysUnder(redis, prefix);
    redis.disconnect();
  }
}
