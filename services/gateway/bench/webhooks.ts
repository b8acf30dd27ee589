import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import { median, percentile, processCpuSeconds, startStack } from '@spam-check/process-kit';
import { removeKeysUnder, writeBootstrapFile } from '@spam-check/test-support';
import { connect } from 'amqplib';
import { Redis } from 'ioredis';
import { loadServiceConfig } from '../src/config';
import { webhookQueueNames } from '../src/data-access/webhook-queue-amqp';
import { retryDelays } from '../src/domain/webhook-retry';

/**
 * A check's cost with webhooks (about 1 min; needs REDIS_URL and AMQP_URL): two clients of one gateway, one
 * with two webhooks on `check.spam` (to a receiver on loopback answering 204), one without; both check a
 * disposable address (spam, so every check of the first raises an event and two deliveries). Rounds of
 * ROUND_S seconds alternate between the clients, one request at a time (so nothing queues and each time is
 * the check's own); each round's p50 is taken, and the median of those per client is compared. Aim: the
 * check with two webhooks within 5 % of the one without. Wall time means little on a loaded machine, so the
 * gateway's CPU time per check is printed too (`/proc`, summed over each client's rounds): after each round
 * with webhooks the bench waits until its deliveries have arrived, so that their work is counted on that side
 * and not in the next round without.
 */
const ROUNDS = 5;
const ROUND_S = 4;
const BODY = JSON.stringify({ email: 'someone@mailinator.com' });

async function receiver() {
  let received = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      res.writeHead(204).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received: () => received,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

async function token(gateway: string, client: { id: string; secret: string }, form: Record<string, string>) {
  const answer = await fetch(`${gateway}/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(form),
  });
  const body = (await answer.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`no token for ${client.id}: ${answer.status}`);
  return body.access_token;
}

/** Waits until `done` (the deliveries of the rounds so far have arrived), for at most 60 s. */
async function delivered(done: () => boolean): Promise<void> {
  const until = performance.now() + 60_000;
  while (!done() && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** Milliseconds of each check in a round of `seconds`, one at a time. */
async function round(url: string, bearer: string, seconds: number): Promise<number[]> {
  const times: number[] = [];
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const start = performance.now();
    const answer = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body: BODY,
    });
    await answer.arrayBuffer();
    if (answer.status !== 200) throw new Error(`check answered ${answer.status}`);
    times.push(performance.now() - start);
  }
  return times;
}

export async function benchWebhooks(): Promise<void> {
  const redisUrl = process.env.REDIS_URL;
  const amqpUrl = process.env.AMQP_URL;
  if (!redisUrl || !amqpUrl) throw new Error('the webhooks bench needs REDIS_URL and AMQP_URL');
  const unique = randomUUID();
  const queue = `bench-webhooks-${unique}`;
  const clients = {
    hooked: { id: 'bench-hooked', secret: randomUUID() },
    plain: { id: 'bench-plain', secret: randomUUID() },
    admin: { id: 'bench-admin', secret: randomUUID() },
  };
  const admin = { username: 'bench-admin', password: randomUUID() };
  const bootstrap = writeBootstrapFile({
    clients: [
      { ...clients.hooked, grants: ['client_credentials'], scopes: ['spam:check'] },
      { ...clients.plain, grants: ['client_credentials'], scopes: ['spam:check'] },
      { ...clients.admin, grants: ['password'], scopes: ['spam:admin'] },
    ],
    users: [{ ...admin, scopes: ['spam:admin'] }],
  });
  const prefix = `bench:webhooks:${unique}:`;
  const env = {
    EMAIL_DNS_CHECK: 'off',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_REQUESTS: '1000000000',
    REDIS_URL: redisUrl,
    AMQP_URL: amqpUrl,
    AUTH_BOOTSTRAP_FILE: bootstrap,
    AUTH_REDIS_PREFIX: `${prefix}auth:`,
    REDIS_KEY_PREFIX: `${prefix}gateway:`,
    EMAIL_FEEDBACK_PREFIX: `${prefix}email-feedback:`,
    CLIENT_SETTINGS_PREFIX: `${prefix}settings:`,
    CLIENT_SETTINGS_CHANNEL: `${prefix}settings`,
    FEEDBACK_RETENTION_SECONDS: '600',
    GATEWAY_CLIENT_ID: 'gateway-bench',
    GATEWAY_CLIENT_SECRET: unique,
    WEBHOOK_QUEUE: queue,
    WEBHOOK_ALLOW_PRIVATE: 'true',
  };
  const hooks = await receiver();
  const redis = new Redis(redisUrl);
  let stopStack: (() => Promise<void>) | undefined;
  try {
    const stack = await startStack(env, {
      services: ['auth', 'email-detector', 'gateway'],
      readyTimeoutMs: 60_000,
    });
    stopStack = () => stack.stop();
    const gatewayPid = stack.services.gateway.child.pid ?? 0;
    const adminToken = await token(stack.gateway, clients.admin, { grant_type: 'password', ...admin });
    const webhooks = ['first', 'second'].map((id) => ({ id, url: hooks.url, events: ['check.spam'] }));
    const put = await fetch(`${stack.gateway}/api/v1/admin/clients/${clients.hooked.id}/settings`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ webhooks }),
    });
    if (put.status !== 200) throw new Error(`webhooks not set: ${put.status}`);
    const bearer = {
      hooked: await token(stack.gateway, clients.hooked, { grant_type: 'client_credentials' }),
      plain: await token(stack.gateway, clients.plain, { grant_type: 'client_credentials' }),
    };
    const url = `${stack.gateway}/api/v1/spam/mail`;
    const warmUp = (await round(url, bearer.hooked, 1)).length;
    await round(url, bearer.plain, 1);
    await delivered(() => hooks.received() >= 2 * warmUp);
    const p50s = { hooked: [] as number[], plain: [] as number[] };
    const cpu = { hooked: { seconds: 0, checks: 0 }, plain: { seconds: 0, checks: 0 } };
    const hookedBefore = hooks.received();
    let checks = 0;
    for (let index = 0; index < ROUNDS; index++)
      for (const side of ['plain', 'hooked'] as const) {
        const cpuBefore = processCpuSeconds(gatewayPid);
        const times = await round(url, bearer[side], ROUND_S);
        if (side === 'hooked') {
          checks += times.length;
          await delivered(() => hooks.received() - hookedBefore >= 2 * checks);
        }
        cpu[side].seconds += processCpuSeconds(gatewayPid) - cpuBefore;
        cpu[side].checks += times.length;
        p50s[side].push(percentile(times, 0.5));
      }
    const [plain, hooked] = [median(p50s.plain), median(p50s.hooked)];
    const show = (values: number[]) => values.map((value) => value.toFixed(2)).join(' ');
    console.log(
      `webhooks bench: one request at a time, ${ROUNDS} alternated rounds of ${ROUND_S} s per client`,
    );
    console.log(`  without webhooks: p50 per round ${show(p50s.plain)} ms; median ${plain.toFixed(2)} ms`);
    console.log(`  with two webhooks: p50 per round ${show(p50s.hooked)} ms; median ${hooked.toFixed(2)} ms`);
    console.log(
      `  with / without: ${((hooked / plain - 1) * 100).toFixed(1)} % (aim within 5 %); deliveries received ${hooks.received() - hookedBefore} of ${2 * checks}`,
    );
    const perCheck = (side: 'plain' | 'hooked') => (cpu[side].seconds / cpu[side].checks) * 1e6;
    console.log(
      `  gateway CPU per check: without ${perCheck('plain').toFixed(0)} µs (${cpu.plain.checks} checks), with two webhooks and their deliveries ${perCheck('hooked').toFixed(0)} µs (${cpu.hooked.checks} checks): ${((perCheck('hooked') / perCheck('plain') - 1) * 100).toFixed(1)} %`,
    );
  } finally {
    await stopStack?.();
    await hooks.close();
    await removeKeysUnder(redis, prefix);
    redis.disconnect();
    const connection = await connect(amqpUrl);
    const channel = await connection.createChannel();
    const { webhooks } = loadServiceConfig(env);
    for (const name of webhookQueueNames(queue, retryDelays(webhooks.retry)).all)
      await channel.deleteQueue(name);
    await connection.close();
  }
}
