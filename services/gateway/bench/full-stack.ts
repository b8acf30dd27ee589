import { randomUUID } from 'node:crypto';
import { createPinning, medianBy, processCpuSeconds, startStack } from '@spam-check/process-kit';
import { removeKeysUnder, writeBootstrapFile } from '@spam-check/test-support';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { demoToken } from './token';

/**
 * Full stack versus a direct detector call (about 2 min, 127.0.0.1 only). auth, the e-mail detector and the
 * gateway run as processes; autocannon runs here. Measured: POST /api/v1/spam/mail through the gateway (bearer
 * token validation with its cache, rate limit, body checks, detector call, answer check) and POST /v1/check on
 * the e-mail detector directly, with the same body and the `X-Client-Id` the gateway forwards, DNS off and the
 * same LOG_LEVEL, so the difference is what the gateway adds. With REDIS_URL set, auth and the gateway use Redis (rate limit, revocation channel).
 *
 * Two measurements:
 * - throughput: closed loops of 16, 32 and 64 connections; at each level direct and full stack alternate
 *   ROUNDS times (this machine is shared, so alternating spreads other load over both sides) and the median
 *   round counts. A side's throughput is its best level: the full stack is a deeper pipeline (client, gateway,
 *   detector, back) and needs more requests in flight than the detector alone to keep its slowest stage busy,
 *   so one fixed level would compare a saturated detector with a stack that partly waits. Every level is
 *   printed. In a closed loop p50 is about connections / throughput (Little's law), so these p50s are queueing
 *   times, not what a request costs;
 * - one connection: one request at a time, so nothing queues; the mean round trip (1000 / req/s, in ms:
 *   autocannon records whole milliseconds, so its p50 says 0 or 1 here) is the service time, and the
 *   difference is the latency the gateway adds to a request. (autocannon's `overallRate` is no substitute:
 *   each connection sends its share of a second as fast as it can, then waits.)
 * CPU per request of every process (from /proc, redis-server from INFO) is printed with each median round:
 * the throughput ratio follows the detector's CPU per request over the gateway's. So is the garbage
 * collectors' time per request of the gateway and the detector (`nodejs_gc_duration_seconds` of their
 * /metrics): young-generation pauses that grow with it stall the whole pipeline (service-kit README, "Hidden
 * classes").
 * Pinning (Linux with `taskset` and two CPUs or more; `GATEWAY_BENCH_PIN=off` turns it off): the service whose throughput
 * bounds the round (the detector in direct rounds, the gateway in full-stack rounds), all its threads, runs
 * alone on the last CPU; autocannon, the other services and their GC threads on the others. As in production,
 * where each service has its own pods and CPU, the one measured never waits for a core behind the load
 * generator or the services behind it; unpinned, four processes share two cores and the deeper full stack
 * loses more to scheduling than the detector alone.
 * The text detector is not started: the measured path does not use it, and it would only take memory and CPU
 * from the three processes measured (the gateway's readiness reports it down; the mail path ignores that).
 */
const WARMUP_S = 2;
const ROUND_S = 4;
const ROUNDS = 3;
const LEVELS = [16, 32, 64];
const SINGLE_S = 4;
const BODY = JSON.stringify({ email: 'anna.schmidt@example.org' });

function stackEnv(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {
    EMAIL_DNS_CHECK: 'off',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_REQUESTS: '1000000000',
    AMQP_URL: undefined,
    REDIS_URL: undefined,
  };
  const redis = process.env.REDIS_URL;
  if (redis) {
    const unique = randomUUID();
    const bootstrap = writeBootstrapFile({
      clients: [{ id: 'demo-client', secret: 'demo-secret', grants: ['password'], scopes: ['spam:check'] }],
      users: [{ username: 'demo', password: 'demo-password' }],
    });
    Object.assign(env, {
      REDIS_URL: redis,
      AUTH_BOOTSTRAP_FILE: bootstrap,
      AUTH_REDIS_PREFIX: `bench:auth:${unique}:`,
      REDIS_KEY_PREFIX: `bench:gateway:${unique}:`,
      // Each check leaves a feedback record: under the bench's own prefix (removed at the end), kept briefly
      // in case the bench is killed, never in the shared default prefix for days (a run writes about a million).
      EMAIL_FEEDBACK_PREFIX: `bench:email-feedback:${unique}:`,
      // GATEWAY_BENCH_RETENTION_SECONDS=0 measures the stack keeping nothing (no review list, no feedback records).
      FEEDBACK_RETENTION_SECONDS: process.env.GATEWAY_BENCH_RETENTION_SECONDS ?? '600',
      GATEWAY_CLIENT_ID: 'gateway-bench',
      GATEWAY_CLIENT_SECRET: unique,
    });
  }
  return env;
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU microseconds per request, per process (linux /proc; redis-server through INFO). */
  cpu: Record<string, number>;
  /** Garbage collection microseconds per request of the gateway and the detector (their /metrics). */
  gc: Record<string, number>;
}

/** CPU seconds used so far by each measured process, and GC seconds of the services that report them. */
type UsageReader = () => Promise<{ cpu: Record<string, number>; gc: Record<string, number> }>;

async function load(
  url: string,
  headers: Record<string, string>,
  duration: number,
  readUsage: UsageReader,
  connections: number,
): Promise<Figures> {
  const before = await readUsage();
  const result = await autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: BODY,
    connections,
    duration,
  });
  const after = await readUsage();
  const requests = Math.max(1, result.requests.total);
  const perRequest = (now: Record<string, number>, then: Record<string, number>) =>
    Object.fromEntries(
      Object.entries(now).map(([name, seconds]) => [
        name,
        Math.round(((seconds - (then[name] ?? 0)) * 1e6) / requests),
      ]),
    );
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx + result.timeouts,
    cpu: perRequest(after.cpu, before.cpu),
    gc: perRequest(after.gc, before.gc),
  };
}

const median = (runs: Figures[]): Figures => medianBy(runs, (figures) => figures.rps);

/** The seconds a service's garbage collectors have taken so far (prom-client's default metrics). */
async function gcSeconds(metricsUrl: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  let seconds = 0;
  for (const match of text.matchAll(/^nodejs_gc_duration_seconds_sum\{[^}]*\} ([\d.e+-]+)$/gm))
    seconds += Number(match[1]);
  return seconds;
}

/**
 * CPU of the three services, of this process (autocannon) and, with REDIS_URL, of redis-server; GC time of the
 * services whose metrics are given.
 */
function usageReader(
  pids: Record<string, number | undefined>,
  redis: Redis | undefined,
  metricsUrls: Record<string, string>,
): UsageReader {
  const cpuOf = async () => {
    const seconds: Record<string, number> = {};
    for (const [name, pid] of Object.entries(pids)) if (pid) seconds[name] = processCpuSeconds(pid);
    const own = process.cpuUsage();
    seconds.autocannon = (own.user + own.system) / 1e6;
    if (redis) {
      const info = await redis.info('cpu');
      const used = (key: string) => Number(new RegExp(`^${key}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);
      seconds['redis-server'] = used('used_cpu_sys') + used('used_cpu_user');
    }
    return seconds;
  };
  return async () => {
    const gc: Record<string, number> = {};
    for (const [name, url] of Object.entries(metricsUrls)) gc[name] = await gcSeconds(url);
    return { cpu: await cpuOf(), gc };
  };
}

export async function benchFullStack(): Promise<void> {
  const env = stackEnv();
  const stack = await startStack(env, { services: ['auth', 'email-detector', 'gateway'] });
  const redis = process.env.REDIS_URL ? new Redis(process.env.REDIS_URL) : undefined;
  const auth = stack.services.auth.child.pid;
  const gateway = stack.services.gateway.child.pid;
  const detector = stack.services['email-detector'].child.pid;
  const readUsage = usageReader({ auth, 'email-detector': detector, gateway }, redis, {
    gateway: `${stack.services.gateway.managementUrl}/metrics`,
    'email-detector': `${stack.services['email-detector'].managementUrl}/metrics`,
  });
  const { pin } = createPinning(process.env.GATEWAY_BENCH_PIN !== 'off');
  const pinDirect = () => pin(detector, [gateway, auth]);
  const pinFull = () => pin(gateway, [detector, auth]);
  try {
    const bearer = { authorization: `Bearer ${await demoToken(stack.gateway)}` };
    const gatewayUrl = `${stack.gateway}/api/v1/spam/mail`;
    const directUrl = `${stack.services['email-detector'].url}/v1/check`;
    // The gateway forwards the token's client to the detector, which then looks up that client's settings
    // and reports and records the check for feedback: the direct side does the same detector work.
    const asClient = { 'x-client-id': 'demo-client' };

    const row = (name: string, f: Figures) =>
      `${name.padEnd(34)} ${String(f.rps).padStart(7)} req/s   p50 ${String(f.p50).padStart(3)} ms   p99 ${String(f.p99).padStart(3)} ms   ${f.errors} errors`;
    const cpuRow = (f: Figures) =>
      `    CPU per request: ${Object.entries(f.cpu)
        .filter(([, micros]) => micros > 0)
        .map(([process, micros]) => `${process} ${micros} us`)
        .join(', ')}; of it GC: ${Object.entries(f.gc)
        .map(([process, micros]) => `${process} ${micros} us`)
        .join(', ')}`;
    const pinned = pinDirect();
    console.log(
      `gateway bench: DNS off, LOG_LEVEL=warn, ${process.env.REDIS_URL ? 'Redis' : 'embedded (no Redis)'}, ${pinned ? 'the bounding service pinned alone to the last CPU, everything else to the other CPUs' : 'not pinned'}`,
    );
    console.log(`throughput (closed loops, median of ${ROUNDS} alternated rounds of ${ROUND_S} s per level)`);
    const runs: Figures[] = [];
    const levels: { connections: number; direct: Figures; full: Figures }[] = [];
    for (const connections of LEVELS) {
      pinDirect();
      await load(directUrl, asClient, WARMUP_S, readUsage, connections);
      pinFull();
      await load(gatewayUrl, bearer, WARMUP_S, readUsage, connections);
      const directRuns: Figures[] = [];
      const fullRuns: Figures[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        pinDirect();
        directRuns.push(await load(directUrl, asClient, ROUND_S, readUsage, connections));
        pinFull();
        fullRuns.push(await load(gatewayUrl, bearer, ROUND_S, readUsage, connections));
      }
      runs.push(...directRuns, ...fullRuns);
      const level = { connections, direct: median(directRuns), full: median(fullRuns) };
      levels.push(level);
      console.log(
        `  ${connections} connections (all rounds req/s: direct ${directRuns.map((f) => f.rps).join(' ')}, full ${fullRuns.map((f) => f.rps).join(' ')}); ratio ${(level.full.rps / level.direct.rps).toFixed(2)}`,
      );
      console.log(`  ${row('direct email-detector /v1/check', level.direct)}`);
      console.log(cpuRow(level.direct));
      console.log(`  ${row('full stack /api/v1/spam/mail', level.full)}`);
      console.log(cpuRow(level.full));
    }
    const best = (side: 'direct' | 'full') =>
      levels.reduce((top, level) => (level[side].rps > top[side].rps ? level : top));
    const [direct, full] = [best('direct'), best('full')];
    console.log(
      `throughput: direct ${direct.direct.rps} req/s (at ${direct.connections} connections), full stack ${full.full.rps} req/s (at ${full.connections}); ratio full/direct ${(full.full.rps / direct.direct.rps).toFixed(2)}`,
    );

    pinDirect();
    const directSingle = await load(directUrl, asClient, SINGLE_S, readUsage, 1);
    pinFull();
    const fullSingle = await load(gatewayUrl, bearer, SINGLE_S, readUsage, 1);
    const roundTrip = (f: Figures) => 1000 / f.rps;
    console.log(`one connection (${SINGLE_S} s each, one request at a time)`);
    console.log(
      `${row('direct email-detector /v1/check', directSingle)}   round trip ${roundTrip(directSingle).toFixed(2)} ms`,
    );
    console.log(
      `${row('full stack /api/v1/spam/mail', fullSingle)}   round trip ${roundTrip(fullSingle).toFixed(2)} ms`,
    );
    console.log(
      `latency added by the gateway: ${(roundTrip(fullSingle) - roundTrip(directSingle)).toFixed(2)} ms per request (aim <= 0.5 ms at p50)`,
    );
    const all = [...runs, directSingle, fullSingle];
    if (all.some((f) => f.errors > 0)) process.exitCode = 1;
  } finally {
    await stack.stop();
    // What the run left in Redis, by its prefixes (SCAN, never KEYS: the Redis may be shared).
    if (redis)
      for (const prefix of [env.AUTH_REDIS_PREFIX, env.REDIS_KEY_PREFIX, env.EMAIL_FEEDBACK_PREFIX])
        if (prefix) await removeKeysUnder(redis, prefix);
    redis?.disconnect();
  }
}
