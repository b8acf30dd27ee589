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
 *   wrong client secrets, and a client of its own sending heavy text batches.
 * - Faults: the e-mail detector killed (SIGKILL) and restarted, Redis paused 3 s, RabbitMQ cut 5 s.
 * Prints requests, non-2xx answers by status, sessions lost, the normal clients' non-2xx outside the
 * injected faults (must be 0, as sessions lost), p50/p99 per endpoint and RSS per process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'amqplib';
import { rpcQueueName } from '../packages/amqp-rpc/src';
import {
  freePort,
  percentile,
  processRssBytes,
  SERVICES,
  startStack,
  waitForPort,
} from '@spam-check/process-kit';
import { TcpProxy } from '@spam-check/test-support';
import {
  ADVERSARIES,
  FAULT_GRACE_SECONDS,
  type Sample,
  SoakClient,
  attacker,
  events,
  heavyClient,
  note,
  outages,
  samples,
  secondsIn,
  secret,
  sleep,
  tally,
} from './soak/traffic';

const CLIENTS = 16;
const TRAFFIC_MS = 150_000;
const HARD_LIMIT_MS = 290_000;
const ACCESS_TOKEN_SECONDS = 30;
const FAULTS = { killDetectorAt: 25_000, pauseRedisAt: 65_000, cutRabbitAt: 105_000 };
const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

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
  console.log(`requests that failed after the retries the docs allow: ${tally.failedRequests}`);
  console.log(`sessions lost: ${tally.sessionsLost}`);
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
      for (const queue of Object.values(queues)) await channel.deleteQueue(rpcQueueName(queue, 'quorum'));
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

    tally.startedAt = Date.now();
    const rssStart = rssOf(pids());
    note(`stack ready; ${CLIENTS} clients start (traffic for ${TRAFFIC_MS / 1000} s)`);
    const until = Date.now() + TRAFFIC_MS;
    const traffic = Promise.all([
      ...clients.map((credentials) => new SoakClient(stack.gateway, credentials, until).run()),
      attacker(stack.gateway, clients[0]!.id, until),
      heavyClient(stack.gateway, heavy, until),
    ]);

    const faults = (async () => {
      await sleep(tally.startedAt + FAULTS.killDetectorAt - Date.now());
      note('email-detector killed (SIGKILL); restarting it');
      const killedAt = secondsIn();
      const killed = once(stack.services['email-detector'].child, 'exit');
      stack.services['email-detector'].child.kill('SIGKILL');
      await killed;
      await stack.restart('email-detector');
      note('email-detector ready again');
      outages.push([killedAt, secondsIn() + FAULT_GRACE_SECONDS]);

      await sleep(tally.startedAt + FAULTS.pauseRedisAt - Date.now());
      note('redis-server paused (SIGSTOP) for 3 s');
      const pausedAt = secondsIn();
      redis.kill('SIGSTOP');
      await sleep(3000);
      redis.kill('SIGCONT');
      note('redis-server resumed (SIGCONT)');
      outages.push([pausedAt, secondsIn() + FAULT_GRACE_SECONDS]);

      await sleep(tally.startedAt + FAULTS.cutRabbitAt - Date.now());
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
    const trafficMs = Date.now() - tally.startedAt;
    note('traffic over');
    report(rssStart, rssOf(pids()), trafficMs);
  } finally {
    await cleanup();
    clearTimeout(hardLimit);
  }
  if (tally.sessionsLost > 0 || outsideOutages().length > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
