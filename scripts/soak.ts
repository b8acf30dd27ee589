/**
 * `pnpm soak`: the real stack under mixed traffic while its dependencies fail (docs/operations.md, "Soak").
 * Loopback only, bounded: it stops by itself within 5 minutes and cleans up after itself.
 *
 * - Redis: its own redis-server on a free port (no persistence), so it can be paused with SIGSTOP.
 * - RabbitMQ: the shared broker of AMQP_URL, reached through a TCP proxy of this script, so the link can be
 *   cut without touching the broker; queue names are unique to the run and deleted at the end.
 * - The four services as separate processes, from source, as `pnpm start` runs them.
 * - 16 clients, each its own OAuth client and user, behaving as the docs say: mail, text and hybrid checks
 *   (both modes), a refresh before the access token expires (also between the retries of one check), a
 *   wait of `Retry-After` and a retry on 503/429, a refresh on 401; a refresh answered `invalid_grant` is a
 *   lost session (the client logs in again).
 * - Next to them, from the same address: an attacker flooding the token endpoint with wrong passwords and
 *   wrong client secrets, and a client of its own sending heavy text batches (issue #29).
 * - Faults: the e-mail detector killed (SIGKILL) and restarted, Redis paused 3 s, RabbitMQ cut 5 s.
 * Prints requests, non-2xx answers by status, sessions lost, the normal clients' non-2xx outside the
 * injected faults (must be 0, as sessions lost), p50/p99 per endpoint and RSS per process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'amqplib';
import {
  freePort,
  percentile,
  processRssBytes,
  SERVICES,
  startStack,
  waitForPort,
} from '@spam-check/process-kit';
import { TcpProxy } from '@spam-check/test-support';

const CLIENTS = 16;
const TRAFFIC_MS = 150_000;
const HARD_LIMIT_MS = 290_000;
const ACCESS_TOKEN_SECONDS = 30;
const FAULTS = { killDetectorAt: 25_000, pauseRedisAt: 65_000, cutRabbitAt: 105_000 };
const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

type Endpoint =
  | 'mail'
  | 'text'
  | 'hybrid parallel'
  | 'hybrid step-by-step'
  | 'token password'
  | 'token refresh'
  | 'attacker token'
  | 'heavy text batch';
/** Not the normal clients' traffic: their answers are reported, but not held against the stack. */
const ADVERSARIES: readonly Endpoint[] = ['attacker token', 'heavy text batch'];
const HEAVY_BATCH_ITEMS = 10;
/** The seconds after a fault's end in which its answers still count as the fault's (retries in flight). */
const FAULT_GRACE_SECONDS = 3;
interface Sample {
  endpoint: Endpoint;
  status: number | 'network error';
  ms: number;
  /** Seconds since the traffic started. */
  at: number;
}
interface Session {
  access: string;
  refresh: string;
  refreshAt: number;
}

const samples: Sample[] = [];
const events: string[] = [];
/** The injected faults, in seconds of traffic: from the fault to its repair, plus FAULT_GRACE_SECONDS. */
const outages: [number, number][] = [];
let sessionsLost = 0;
let failedRequests = 0;
let startedAt = Date.now();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const secondsIn = () => (Date.now() - startedAt) / 1000;
const elapsed = () => `${secondsIn().toFixed(1).padStart(5)} s`;
const note = (event: string) => {
  events.push(`${elapsed()}  ${event}`);
  console.log(`${elapsed()}  ${event}`);
};
const secret = () => randomBytes(24).toString('hex');

function isLoopback(url: string): boolean {
  return ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname);
}

async function startRedis(port: number): Promise<ChildProcess> {
  const redis = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  try {
    await waitForPort(port);
  } catch {
    throw new Error('redis-server did not start (is it installed?)');
  }
  return redis;
}

/** One HTTP exchange, timed and recorded. */
async function exchange(endpoint: Endpoint, url: string, init: RequestInit): Promise<Response | undefined> {
  const begin = performance.now();
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
    await response.clone().arrayBuffer();
    samples.push({ endpoint, status: response.status, ms: performance.now() - begin, at: secondsIn() });
    return response;
  } catch {
    samples.push({ endpoint, status: 'network error', ms: performance.now() - begin, at: secondsIn() });
    return undefined;
  }
}

type CheckEndpoint = Exclude<
  Endpoint,
  'token password' | 'token refresh' | 'attacker token' | 'heavy text batch'
>;

/** A fresh request body per call, so no cache answers it. */
function checkRequest(endpoint: CheckEndpoint): {
  path: string;
  body: object;
  headers: Record<string, string>;
} {
  const n = Math.floor(Math.random() * 1e6);
  switch (endpoint) {
    case 'mail':
      return { path: '/deapi/v1/spam/mail', body: { email: `kunde.${n}@beispiel.de` }, headers: {} };
    case 'text':
      return {
        path: '/frapi/v1/spam/text',
        body: { title: `Question ${n}`, body: 'Bonjour, merci pour l’article.' },
        headers: {},
      };
    case 'hybrid parallel':
      return {
        path: '/api/v1/spam/hybrid-check',
        body: { email: `reader${n}@example.org`, title: 'Hello', body: `Nice article number ${n}.` },
        headers: {},
      };
    case 'hybrid step-by-step':
      return {
        path: '/api/v1/spam/hybrid-check',
        body: { email: `reader${n}@example.org`, title: 'Hello', body: `Great read, thanks ${n}.` },
        headers: { 'X-Internal-Step-By-Step': 'true' },
      };
  }
}

const retryAfterMs = (response: Response | undefined) =>
  Math.min(10, Number(response?.headers.get('retry-after') ?? 1) || 1) * 1000;

class SoakClient {
  private session: Session | undefined;

  constructor(
    private readonly gateway: string,
    private readonly credentials: { id: string; secret: string; username: string; password: string },
    private readonly until: number,
  ) {}

  /** Token endpoint call; 503 and 429 are retried after Retry-After, as the docs tell clients to. */
  private async token(endpoint: Endpoint, form: Record<string, string>): Promise<Response | undefined> {
    const basic = Buffer.from(`${this.credentials.id}:${this.credentials.secret}`).toString('base64');
    for (;;) {
      const response = await exchange(endpoint, `${this.gateway}/oauth/token`, {
        method: 'POST',
        headers: { Authorization: `Basic ${basic}`, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form).toString(),
      });
      if (response && response.status !== 503 && response.status !== 429) return response;
      if (Date.now() + retryAfterMs(response) > this.until + 15_000) return response;
      await sleep(retryAfterMs(response));
    }
  }

  private adopt(body: { access_token: string; refresh_token: string; expires_in: number }): void {
    // Refresh at 60–80 % of the lifetime: before expiry, spread over the clients.
    const lifetimeMs = body.expires_in * 1000 * (0.6 + Math.random() * 0.2);
    this.session = {
      access: body.access_token,
      refresh: body.refresh_token,
      refreshAt: Date.now() + lifetimeMs,
    };
  }

  async login(): Promise<void> {
    const response = await this.token('token password', {
      grant_type: 'password',
      username: this.credentials.username,
      password: this.credentials.password,
    });
    if (response?.status !== 200)
      throw new Error(`login of ${this.credentials.username}: ${response?.status}`);
    this.adopt((await response.json()) as never);
  }

  private async refresh(): Promise<void> {
    const response = await this.token('token refresh', {
      grant_type: 'refresh_token',
      refresh_token: this.session!.refresh,
    });
    if (response?.status === 200) return this.adopt((await response.json()) as never);
    const body = (await response?.json().catch(() => undefined)) as { error?: string } | undefined;
    if (body?.error === 'invalid_grant') {
      sessionsLost += 1;
      note(`session of ${this.credentials.username} lost (refresh answered invalid_grant); logging in again`);
    }
    await this.login();
  }

  private async check(endpoint: CheckEndpoint): Promise<void> {
    const { path, body, headers } = checkRequest(endpoint);
    for (let attempt = 1; attempt <= 6; attempt += 1) {
      // A check retried through an outage may outlive the access token: refresh first, as before any call.
      if (Date.now() >= this.session!.refreshAt) await this.refresh();
      const response = await exchange(endpoint, `${this.gateway}${path}`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${this.session!.access}`,
          'Content-Type': 'application/json',
          ...headers,
        },
        body: JSON.stringify(body),
      });
      if (response?.ok) return;
      if (response?.status === 401) await this.refresh();
      else if (!response || response.status === 503 || response.status === 429) {
        if (Date.now() > this.until) break;
        await sleep(retryAfterMs(response));
      } else break;
    }
    failedRequests += 1;
  }

  async run(): Promise<void> {
    await this.login();
    const mix: CheckEndpoint[] = ['mail', 'mail', 'mail', 'text', 'text', 'text'];
    mix.push('hybrid parallel', 'hybrid parallel', 'hybrid step-by-step', 'hybrid step-by-step');
    while (Date.now() < this.until) {
      if (Date.now() >= this.session!.refreshAt) await this.refresh();
      else await this.check(mix[Math.floor(Math.random() * mix.length)]!);
      await sleep(20 + Math.random() * 60);
    }
  }
}

/** Failed logins and wrong client secrets at the token endpoint, from the clients' own address, until `until`. */
async function attacker(gateway: string, victim: string, until: number): Promise<void> {
  while (Date.now() < until) {
    const wrongSecret = Math.random() < 0.5;
    const basic = Buffer.from(`${victim}:${wrongSecret ? secret() : 'x'}`).toString('base64');
    await exchange('attacker token', `${gateway}/oauth/token`, {
      method: 'POST',
      headers: { Authorization: `Basic ${basic}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'password',
        username: `nobody-${Math.floor(Math.random() * 1e6)}`,
        password: secret(),
      }).toString(),
    });
    await sleep(20);
  }
}

/** One client sending text batches of HEAVY_BATCH_ITEMS texts of 100,000 characters, two at a time. */
async function heavyClient(
  gateway: string,
  credentials: { id: string; secret: string; username: string; password: string },
  until: number,
): Promise<void> {
  const basic = Buffer.from(`${credentials.id}:${credentials.secret}`).toString('base64');
  let login: Response | undefined;
  // 503 and 429 are retried after Retry-After, as the docs tell clients to, as the other clients' logins.
  while (Date.now() < until) {
    login = await exchange('heavy text batch', `${gateway}/oauth/token`, {
      method: 'POST',
      headers: { Authorization: `Basic ${basic}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'password',
        username: credentials.username,
        password: credentials.password,
      }).toString(),
    });
    if (login && login.status !== 503 && login.status !== 429) break;
    await sleep(retryAfterMs(login));
  }
  if (login?.status !== 200) throw new Error(`login of the heavy client: ${login?.status}`);
  const { access_token: token } = (await login.json()) as { access_token: string };
  const paragraph = 'Danke für den Artikel über die Stadt und ihre Geschichte, wir kommen gern wieder. ';
  const body = JSON.stringify({
    items: Array.from({ length: HEAVY_BATCH_ITEMS }, (_, i) => ({
      title: `Bericht ${i}`,
      body: paragraph.repeat(Math.ceil(100_000 / paragraph.length)).slice(0, 100_000),
    })),
  });
  const sender = async () => {
    while (Date.now() < until) {
      const answer = await exchange('heavy text batch', `${gateway}/api/v1/spam/text/batch`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body,
      });
      if (answer?.status === 401) return;
      if (!answer?.ok) await sleep(retryAfterMs(answer));
    }
  };
  await Promise.all([sender(), sender()]);
}

/** The normal clients' non-2xx answers that came in outside the injected faults. */
function outsideOutages(): Sample[] {
  return samples.filter(
    (sample) =>
      !ADVERSARIES.includes(sample.endpoint) &&
      (typeof sample.status !== 'number' || sample.status >= 300) &&
      !outages.some(([from, to]) => sample.at >= from && sample.at <= to),
  );
}

function rssOf(processes: Record<string, number | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(processes).map(([name, pid]) => {
      try {
        return [name, pid ? `${(processRssBytes(pid) / 2 ** 20).toFixed(0)} MiB` : 'gone'];
      } catch {
        return [name, 'gone'];
      }
    }),
  );
}

function report(rssStart: Record<string, string>, rssEnd: Record<string, string>, trafficMs: number): void {
  const byStatus = new Map<string, number>();
  for (const sample of samples) {
    if (typeof sample.status === 'number' && sample.status < 300) continue;
    byStatus.set(String(sample.status), (byStatus.get(String(sample.status)) ?? 0) + 1);
  }
  console.log('\n== soak figures ==');
  console.log(`traffic: ${(trafficMs / 1000).toFixed(0)} s, ${CLIENTS} clients`);
  console.log(`requests (HTTP exchanges, retries included): ${samples.length}`);
  console.log(`non-2xx by status: ${JSON.stringify(Object.fromEntries([...byStatus].sort()))}`);
  console.log(`requests that failed after the retries the docs allow: ${failedRequests}`);
  console.log(`sessions lost: ${sessionsLost}`);
  const outside = outsideOutages();
  console.log(
    `normal clients' non-2xx outside the injected faults: ${outside.length}` +
      (outside.length > 0
        ? ` (${outside.map((s) => `${s.endpoint} ${s.status} at ${s.at.toFixed(1)} s`).join('; ')})`
        : ''),
  );
  console.log('\nendpoint              requests   p50 ms   p99 ms   non-2xx');
  const endpoints = [...new Set(samples.map((sample) => sample.endpoint))];
  for (const endpoint of endpoints) {
    const own = samples.filter((sample) => sample.endpoint === endpoint);
    const times = own.map((sample) => sample.ms);
    const bad = own.filter((sample) => typeof sample.status !== 'number' || sample.status >= 300).length;
    console.log(
      `${endpoint.padEnd(20)} ${String(own.length).padStart(9)} ${percentile(times, 0.5).toFixed(1).padStart(8)} ` +
        `${percentile(times, 0.99).toFixed(1).padStart(8)} ${String(bad).padStart(9)}`,
    );
  }
  console.log('\nnon-2xx answers by endpoint and status, with the seconds of traffic they came in:');
  const groups = new Map<string, number[]>();
  for (const sample of samples) {
    if (typeof sample.status === 'number' && sample.status < 300) continue;
    const key = `${sample.endpoint} ${sample.status}`;
    groups.set(key, [...(groups.get(key) ?? []), sample.at]);
  }
  for (const [key, times] of [...groups].sort()) {
    const seconds = [...new Set(times.map(Math.floor))].join(', ');
    console.log(`  ${key}: ${times.length} (at ${seconds} s)`);
  }
  console.log(
    '\nRSS at the start and the end of the traffic (the restarted e-mail detector is a new process):',
  );
  console.log(`${'process'.padEnd(15)} ${'start'.padStart(8)} ${'end'.padStart(8)}`);
  for (const name of Object.keys(rssStart)) {
    console.log(`${name.padEnd(15)} ${rssStart[name]!.padStart(8)} ${rssEnd[name]!.padStart(8)}`);
  }
  console.log('\nfaults:');
  for (const event of events) console.log(`  ${event}`);
}

async function main(): Promise<void> {
  if (!isLoopback(AMQP_URL))
    throw new Error(`the soak runs on loopback only; AMQP_URL points at ${AMQP_URL}`);
  const run = randomUUID().slice(0, 8);
  const queues = { email: `soak-${run}.email`, text: `soak-${run}.text` };
  const dir = mkdtempSync(join(tmpdir(), 'soak-'));
  const cleanups: (() => Promise<void> | void)[] = [() => rmSync(dir, { recursive: true, force: true })];
  const cleanup = async () => {
    for (const step of cleanups.splice(0).reverse()) await Promise.resolve(step()).catch(() => undefined);
  };
  const hardLimit = setTimeout(() => {
    console.error('soak: hard time limit reached; stopping');
    void cleanup().finally(() => process.exit(2));
  }, HARD_LIMIT_MS);
  hardLimit.unref();

  try {
    const redisPort = await freePort();
    const redis = await startRedis(redisPort);
    cleanups.push(async () => {
      redis.kill('SIGCONT');
      redis.kill('SIGTERM');
      await once(redis, 'exit');
    });
    const rabbit = await TcpProxy.start(AMQP_URL, 5672);
    cleanups.push(() => rabbit.close());
    cleanups.push(async () => {
      const connection = await connect(AMQP_URL);
      const channel = await connection.createChannel();
      for (const queue of Object.values(queues)) await channel.deleteQueue(queue);
      await connection.close();
    });

    const clients = Array.from({ length: CLIENTS }, (_, i) => ({
      id: `soak-client-${i}`,
      secret: secret(),
      username: `soak-user-${i}`,
      password: secret(),
    }));
    const heavy = { id: 'soak-heavy', secret: secret(), username: 'soak-heavy-user', password: secret() };
    const gatewayClient = { id: 'soak-gateway', secret: secret() };
    const bootstrap = join(dir, 'bootstrap.json');
    writeFileSync(
      bootstrap,
      JSON.stringify({
        clients: [...clients, heavy].map(({ id, secret: clientSecret }) => ({
          id,
          secret: clientSecret,
          grants: ['password', 'refresh_token'],
          scopes: ['spam:check'],
        })),
        users: [...clients, heavy].map(({ username, password }) => ({ username, password })),
      }),
    );

    const stack = await startStack(
      {
        LOG_LEVEL: 'error',
        REDIS_URL: `redis://127.0.0.1:${redisPort}`,
        AMQP_URL: rabbit.url,
        AUTH_BOOTSTRAP_FILE: bootstrap,
        AUTH_ACCESS_TOKEN_LIFETIME_SECONDS: String(ACCESS_TOKEN_SECONDS),
        GATEWAY_CLIENT_ID: gatewayClient.id,
        GATEWAY_CLIENT_SECRET: gatewayClient.secret,
        EMAIL_RPC_QUEUE: queues.email,
        TEXT_RPC_QUEUE: queues.text,
        EMAIL_DNS_CHECK: 'off',
        TEXT_LLM_MODE: 'never',
        OPENAI_API_KEY: undefined,
        // The soak is about faults, not about the per-client limit (tested on its own).
        RATE_LIMIT_REQUESTS: '0',
      },
      { readyTimeoutMs: 120_000 },
    );
    cleanups.push(() => stack.stop());
    const pids = () => ({
      ...Object.fromEntries(SERVICES.map((name) => [name, stack.services[name].child.pid])),
      'redis-server': redis.pid,
    });

    startedAt = Date.now();
    const rssStart = rssOf(pids());
    note(`stack ready; ${CLIENTS} clients start (traffic for ${TRAFFIC_MS / 1000} s)`);
    const until = Date.now() + TRAFFIC_MS;
    const traffic = Promise.all([
      ...clients.map((credentials) => new SoakClient(stack.gateway, credentials, until).run()),
      attacker(stack.gateway, clients[0]!.id, until),
      heavyClient(stack.gateway, heavy, until),
    ]);

    const faults = (async () => {
      await sleep(startedAt + FAULTS.killDetectorAt - Date.now());
      note('email-detector killed (SIGKILL); restarting it');
      const killedAt = secondsIn();
      const killed = once(stack.services['email-detector'].child, 'exit');
      stack.services['email-detector'].child.kill('SIGKILL');
      await killed;
      await stack.restart('email-detector');
      note('email-detector ready again');
      outages.push([killedAt, secondsIn() + FAULT_GRACE_SECONDS]);

      await sleep(startedAt + FAULTS.pauseRedisAt - Date.now());
      note('redis-server paused (SIGSTOP) for 3 s');
      const pausedAt = secondsIn();
      redis.kill('SIGSTOP');
      await sleep(3000);
      redis.kill('SIGCONT');
      note('redis-server resumed (SIGCONT)');
      outages.push([pausedAt, secondsIn() + FAULT_GRACE_SECONDS]);

      await sleep(startedAt + FAULTS.cutRabbitAt - Date.now());
      note('RabbitMQ cut for 5 s (every connection dropped, new ones refused)');
      const cutAt = secondsIn();
      rabbit.refuse(true);
      rabbit.drop();
      await sleep(5000);
      rabbit.refuse(false);
      note('RabbitMQ reachable again');
      outages.push([cutAt, secondsIn() + FAULT_GRACE_SECONDS]);
    })();

    await Promise.all([traffic, faults]);
    const trafficMs = Date.now() - startedAt;
    note('traffic over');
    report(rssStart, rssOf(pids()), trafficMs);
  } finally {
    await cleanup();
    clearTimeout(hardLimit);
  }
  if (sessionsLost > 0 || outsideOutages().length > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
