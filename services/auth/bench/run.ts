/**
 * `pnpm --filter @spam-check/auth bench`: token issuance (password grant) and introspection throughput with
 * p50/p99, against the real auth service in its own process (one core) and the Redis of REDIS_URL (default
 * redis://127.0.0.1:6379, loopback only). Introspection is measured in several short rounds after a warm-up
 * and reported as their median, with every round listed. About 40 s in all; keys live under a unique prefix,
 * deleted after. `AUTH_BENCH_COMPILED=1` runs the compiled service (`node dist/main.js`, workspace packages
 * from their dist: build them first with `pnpm --filter @spam-check/auth... build`) instead of the source
 * through tsx; `AUTH_BENCH_NODE_ARGS` adds Node options to the service (`--cpu-prof` to profile it).
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname } from 'node:path';
import {
  createPinning,
  freePort,
  median,
  processCpu,
  processCpuSeconds,
  runBenches,
  spawnService,
  stealSeconds,
  stopService,
  waitForReady,
} from '@spam-check/process-kit';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { removeKeysUnder, writeBootstrapFile } from '@spam-check/test-support';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const SCRYPT_COST = process.env.AUTH_SCRYPT_COST ?? '16384';
const TOKEN_DURATION_S = 5;
const WARMUP_S = 3;
const ROUNDS = 6;
const ROUND_S = 5;
const COMPILED = process.env.AUTH_BENCH_COMPILED === '1';
/** Extra Node options for the service only, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it. */
const NODE_ARGS = (process.env.AUTH_BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

interface Round {
  requests: number;
  p50: number;
  p99: number;
  ok: number;
  non2xx: number;
  errors: number;
  perCpuSecond: number;
  cpuPerSecond: number;
}

/**
 * One autocannon run. The machine is shared, so besides wall-clock throughput it reports requests per
 * CPU-second of the service process: what one fully available core would sustain.
 */
async function round(pid: number, durationS: number, options: autocannon.Options): Promise<Round> {
  const cpuBefore = processCpuSeconds(pid);
  const startedAt = performance.now();
  const result = await autocannon({ duration: durationS, ...options });
  const elapsedS = (performance.now() - startedAt) / 1000;
  const cpu = processCpuSeconds(pid) - cpuBefore;
  return {
    requests: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    perCpuSecond: Math.round(result['2xx'] / cpu),
    cpuPerSecond: cpu / elapsedS,
  };
}

function line(title: string, r: Round, connections: number | undefined): string {
  return (
    `${title.padEnd(34)} ${r.requests.toString().padStart(6)} req/s   p50 ${r.p50} ms   p99 ${r.p99} ms   ` +
    `${r.perCpuSecond} req per CPU-second of the service (${r.cpuPerSecond.toFixed(2)} CPU-s/s)   ` +
    `(${r.ok} ok, ${r.non2xx} non-2xx, ${r.errors} errors, ${connections} connections)`
  );
}

const roundedMedian = (values: number[]): number => Math.round(median(values));

/**
 * What else used the CPUs during the introspection rounds: Redis is a shared, unpinned process, so the
 * scheduler may put it on the service's CPU (taking from the service) or on autocannon's; steal time is the
 * hypervisor giving our vCPUs to someone else. Both explain rounds that differ without any code change.
 */
async function neighbours(redis: Redis, serviceCpu: number | undefined) {
  const info = await redis.info();
  const field = (name: string) => Number(new RegExp(`^${name}:(\\S+)`, 'm').exec(info)?.[1] ?? NaN);
  const redisPid = field('process_id');
  const redisCpu = () => field('used_cpu_sys') + field('used_cpu_user');
  const cpuBefore = redisCpu();
  const stealBefore = stealSeconds();
  const startedAt = performance.now();
  let samples = 0;
  let onServiceCpu = 0;
  const timer = setInterval(() => {
    try {
      const processor = processCpu(redisPid);
      samples++;
      if (processor === serviceCpu) onServiceCpu++;
    } catch {
      // Redis in another PID namespace (a container): no placement figures.
    }
  }, 50);
  return async () => {
    clearInterval(timer);
    const elapsedS = (performance.now() - startedAt) / 1000;
    const after = await redis.info('cpu');
    const cpuAfter =
      Number(/^used_cpu_sys:(\S+)/m.exec(after)?.[1]) + Number(/^used_cpu_user:(\S+)/m.exec(after)?.[1]);
    const steal = stealSeconds().map((value, cpu) => ((value - (stealBefore[cpu] ?? 0)) / elapsedS) * 100);
    return (
      `Redis used ${((cpuAfter - cpuBefore) / elapsedS).toFixed(2)} CPU-s/s` +
      (samples > 0 && serviceCpu !== undefined
        ? `, on the service's CPU in ${Math.round((onServiceCpu / samples) * 100)}% of samples`
        : '') +
      `; steal ${steal.map((value, cpu) => `CPU ${cpu} ${value.toFixed(1)}%`).join(', ')}`
    );
  };
}

async function tokenAndIntrospection(): Promise<void> {
  const host = new URL(REDIS_URL).hostname;
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host))
    throw new Error(`the bench only runs against a loopback Redis, not ${host}`);
  const prefix = `bench:auth:${randomUUID()}:`;
  const bootstrap = writeBootstrapFile({
    clients: [
      {
        id: 'bench-app',
        secret: 'bench-app-secret',
        grants: ['password', 'refresh_token'],
        scopes: ['spam:check'],
      },
      { id: 'bench-gateway', secret: 'bench-gateway-secret', grants: [], scopes: ['auth:introspect'] },
    ],
    users: [{ username: 'bench-user', password: 'bench-password' }],
  });
  const service = spawnService(
    'auth',
    {
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      REDIS_URL,
      AUTH_REDIS_PREFIX: prefix,
      AUTH_REVOCATION_CHANNEL: `bench:auth:revocations:${randomUUID()}`,
      AUTH_BOOTSTRAP_FILE: bootstrap,
      AUTH_SCRYPT_COST: SCRYPT_COST,
      // 8 connections sign in one user at once; each sign-in holds a slot of the per-user limit (5) while its
      // scrypt runs, so the default would refuse some: the bench measures the token endpoint, not the limit.
      AUTH_LOGIN_MAX_FAILURES_PER_USER: '1000',
      GATEWAY_CLIENT_ID: 'bench-gateway',
      GATEWAY_CLIENT_SECRET: 'bench-gateway-secret',
    },
    await freePort(),
    { compiled: COMPILED, nodeArgs: NODE_ARGS, onOutput: (chunk) => process.stdout.write(chunk) },
  );
  const { url } = service;
  const pid = service.child.pid!;
  try {
    await waitForReady(service);
    // "One core" honestly: the service (all its threads: GC helpers, libuv) alone on the last CPU and this
    // process (autocannon) on the others, so the two never share a core and the service's CPU-seconds cannot
    // exceed one per second. Where pinning is impossible the report says so.
    const pinning = createPinning();
    const pinned = pinning.pin(pid);
    const form = 'grant_type=password&username=bench-user&password=bench-password';
    const first = await fetch(`${url}/oauth/token`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Authorization: basic('bench-app', 'bench-app-secret'),
      },
      body: form,
    });
    const { access_token: token } = (await first.json()) as { access_token: string };

    console.log(
      `auth bench: Node ${process.version}, load average ${loadavg()[0]?.toFixed(1)}, ` +
        `${COMPILED ? 'compiled service (dist)' : 'service source through tsx'} in its own process ` +
        `(${pinning.note}), Redis ${REDIS_URL}`,
    );
    /** Form POSTs to `path` with `connections` at once, as the client with `authorization`. */
    const formPosts = (path: string, connections: number, authorization: string, body: string) =>
      ({
        url: `${url}${path}`,
        method: 'POST',
        connections,
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization },
        body,
      }) satisfies autocannon.Options;
    const tokenOptions = formPosts('/oauth/token', 8, basic('bench-app', 'bench-app-secret'), form);
    const tokenRound = await round(pid, TOKEN_DURATION_S, tokenOptions);
    console.log(line(`token (password, scrypt N=${SCRYPT_COST})`, tokenRound, tokenOptions.connections));

    const introspectOptions = formPosts(
      '/oauth/introspect',
      32,
      basic('bench-gateway', 'bench-gateway-secret'),
      `token=${token}`,
    );
    await round(pid, WARMUP_S, introspectOptions);
    const redis = new Redis(REDIS_URL);
    const report = await neighbours(redis, pinned ? pinning.cpu : undefined);
    const rounds: Round[] = [];
    for (let i = 0; i < ROUNDS; i++) rounds.push(await round(pid, ROUND_S, introspectOptions));
    const neighbourNote = await report();
    redis.disconnect();
    const summary: Round = {
      requests: roundedMedian(rounds.map((r) => r.requests)),
      p50: roundedMedian(rounds.map((r) => r.p50)),
      p99: roundedMedian(rounds.map((r) => r.p99)),
      ok: rounds.reduce((sum, r) => sum + r.ok, 0),
      non2xx: rounds.reduce((sum, r) => sum + r.non2xx, 0),
      errors: rounds.reduce((sum, r) => sum + r.errors, 0),
      perCpuSecond: roundedMedian(rounds.map((r) => r.perCpuSecond)),
      cpuPerSecond: median(rounds.map((r) => r.cpuPerSecond)),
    };
    console.log(line('introspection (active token)', summary, introspectOptions.connections));
    console.log(
      `  median of ${ROUNDS} rounds of ${ROUND_S} s after ${WARMUP_S} s of warm-up; rounds: ` +
        rounds.map((r) => r.requests).join(', ') +
        ' req/s',
    );
    console.log(`  ${neighbourNote}`);
  } finally {
    await stopService(service);
    rmSync(dirname(bootstrap), { recursive: true, force: true });
    const redis = new Redis(REDIS_URL);
    await removeKeysUnder(redis, prefix);
    redis.disconnect();
  }
}

void runBenches({ 'token-and-introspection': tokenAndIntrospection });
