import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import net from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import {
  freePort,
  processCpuSeconds,
  processRssBytes,
  spawnService,
  startStack,
  stopService,
  waitForReady,
  type ServiceProcess,
  type Stack,
} from '@spam-check/process-kit';
import { startRedisServer, writeBootstrapFile } from '@spam-check/test-support';
import { Redis } from 'ioredis';
import type { Window } from './cpu-profile';
import type { BenchText } from './texts';

export const CLIENTS = 4;

/** What one kind of check cost: CPU seconds per 1,000 checks of each process, Redis per check. */
export interface Measured {
  cpuPer1000: Record<string, number>;
  /** When the measured checks ran (monotonic clock, microseconds). */
  window: Window;
  /** Checks per second of wall time: what the machine's other load left, not the code's alone. */
  checksPerSecond: number;
  /** Commands and bytes in and out per check, and what Redis holds more per check (kept records). */
  redis?: { opsPerCheck: number; bytesPerCheck: number; memoryPerCheck: number };
}

/** What one run of the stack measured: text checks (at the top level), the other kinds, reports. */
export interface StackFigures extends Measured {
  mode: 'embedded' | 'redis';
  checks: number;
  detectorRssMb: number;
  kinds: Partial<Record<Exclude<CheckKind, 'text'>, Measured>>;
  reports?: { opsPerReport: number; bytesPerReport: number };
}

interface RedisCounters {
  ops: number;
  bytes: number;
  memory: number;
}

async function redisCounters(redis: Redis): Promise<RedisCounters> {
  const info = `${await redis.info('stats')}\n${await redis.info('memory')}`;
  const field = (name: string) => Number(new RegExp(`^${name}:(\\d+)`, 'm').exec(info)?.[1] ?? 0);
  return {
    ops: field('total_commands_processed'),
    bytes: field('total_net_input_bytes') + field('total_net_output_bytes'),
    memory: field('used_memory'),
  };
}

async function post(url: string, token: string, body: unknown): Promise<{ id?: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { id?: string };
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

async function serverToken(gateway: string, client: string): Promise<string> {
  const response = await fetch(`${gateway}/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${client}:secret-${client}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  const body = (await response.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`no token for ${client}: ${response.status}`);
  return body.access_token;
}

export type CheckKind = 'text' | 'mail' | 'hybrid';

/** The path and body of a check of `kind` on the `index`-th text (mail: an address of its own). */
function requestOf(kind: CheckKind, text: BenchText, index: number): { path: string; body: object } {
  const email = `reader.${index % 997}@example.org`;
  if (kind === 'mail') return { path: `/${text.lang}/api/v1/spam/mail`, body: { email } };
  const checked = { title: text.title, body: text.body };
  if (kind === 'text') return { path: `/${text.lang}/api/v1/spam/text`, body: checked };
  return { path: `/${text.lang}/api/v1/spam/hybrid-check`, body: { ...checked, email } };
}

/** `count` checks of `kind` through the gateway, by the clients at once, each client its own loop. */
async function checkThrough(
  gateway: string,
  tokens: string[],
  texts: BenchText[],
  count: number,
  kind: CheckKind = 'text',
): Promise<string[][]> {
  let next = 0;
  return Promise.all(
    tokens.map(async (token) => {
      const ids: string[] = [];
      for (let index = next++; index < count; index = next++) {
        const { path, body } = requestOf(kind, texts[index % texts.length]!, index);
        ids.push((await post(`${gateway}${path}`, token, body)).id ?? '');
      }
      return ids;
    }),
  );
}

/** Each client reports its checks of `ids` as spam or ham in turn (by check id), one after the other. */
async function reportThrough(gateway: string, tokens: string[], ids: string[][]): Promise<number> {
  const counts = await Promise.all(
    tokens.map(async (token, client) => {
      const own = ids[client] ?? [];
      for (const [index, checkId] of own.entries()) {
        const label = index % 2 === 0 ? 'spam' : 'ham';
        await post(`${gateway}/api/v1/spam/feedback`, token, { check_id: checkId, label });
      }
      return own.length;
    }),
  );
  return counts.reduce((a, b) => a + b, 0);
}

export interface StackOptions {
  mode: StackFigures['mode'];
  texts: BenchText[];
  checks: number;
  /** Node options per service, e.g. `--cpu-prof`. */
  nodeArgs?: Partial<Record<keyof Stack['services'], string[]>>;
  /** Text detector processes behind the gateway (1 or 2; two behind a round-robin TCP proxy). */
  detectors?: 1 | 2;
  /** Kinds of check measured besides text checks. */
  kinds?: Exclude<CheckKind, 'text'>[];
}

interface RunningStack {
  gateway: string;
  /** The services' processes by name (`text-detector 1`, `text-detector 2` with two detectors). */
  processes: Record<string, ServiceProcess>;
  stop: () => Promise<void>;
}

/** A TCP proxy handing each new connection to the next of `ports` in turn (two detectors behind one URL). */
async function roundRobin(ports: number[]): Promise<{ url: string; close: () => void }> {
  let next = 0;
  const server = net.createServer((client) => {
    const upstream = net.connect(ports[next++ % ports.length]!, '127.0.0.1');
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => server.close() };
}

async function startBenchStack(
  options: StackOptions,
  clients: string[],
  redisPort: number | undefined,
): Promise<RunningStack> {
  const run = randomUUID().slice(0, 8);
  const bootstrap = writeBootstrapFile({
    clients: [
      ...clients.map((id) => ({
        id,
        secret: `secret-${id}`,
        grants: ['client_credentials'],
        scopes: ['spam:check'],
      })),
      { id: `gateway-${run}`, secret: `gateway-${run}`, grants: [], scopes: ['auth:introspect'] },
    ],
    users: [],
  });
  const env = {
    REDIS_URL: redisPort ? `redis://127.0.0.1:${redisPort}` : undefined,
    AMQP_URL: undefined,
    OPENAI_API_KEY: undefined,
    EMAIL_DNS_CHECK: 'off',
    // As `pnpm start` runs it: the default log level, feedback records kept (FEEDBACK_RETENTION_SECONDS).
    LOG_LEVEL: 'info',
    AUTH_BOOTSTRAP_FILE: bootstrap,
    GATEWAY_CLIENT_ID: `gateway-${run}`,
    GATEWAY_CLIENT_SECRET: `gateway-${run}`,
    RATE_LIMIT_REQUESTS: '1000000000',
    TEXT_FEEDBACK_REPORTS_PER_SECOND: '1000',
  };
  const ready = { readyTimeoutMs: 180_000, nodeArgs: options.nodeArgs ?? {} };
  if ((options.detectors ?? 1) === 1) {
    const stack = await startStack<keyof Stack['services']>(env, ready);
    return { gateway: stack.gateway, processes: stack.services, stop: stack.stop };
  }
  const ports = [await freePort(), await freePort()];
  const detectors = ports.map((port) =>
    spawnService('text-detector', env, port, { nodeArgs: options.nodeArgs?.['text-detector'] ?? [] }),
  );
  await Promise.all(detectors.map((detector) => waitForReady(detector, { timeoutMs: 180_000 })));
  const proxy = await roundRobin(ports);
  const stack = await startStack<'auth' | 'email-detector' | 'gateway'>(
    { ...env, TEXT_DETECTOR_URL: proxy.url },
    { ...ready, services: ['auth', 'email-detector', 'gateway'] },
  );
  return {
    gateway: stack.gateway,
    processes: { ...stack.services, 'text-detector 1': detectors[0]!, 'text-detector 2': detectors[1]! },
    stop: async () => {
      await stack.stop();
      await Promise.all(detectors.map(stopService));
      proxy.close();
    },
  };
}

const cpuOf = (stack: RunningStack, redis: ChildProcess | undefined) => {
  const cpu: Record<string, number> = {};
  for (const [name, service] of Object.entries(stack.processes))
    cpu[name] = processCpuSeconds(service.child.pid!);
  if (redis) cpu['redis-server'] = processCpuSeconds(redis.pid!);
  return cpu;
};

/** The largest RSS of the text detectors, in MB. */
const detectorRssMb = (stack: RunningStack) =>
  Math.max(
    ...Object.entries(stack.processes)
      .filter(([name]) => name.startsWith('text-detector'))
      .map(([, service]) => processRssBytes(service.child.pid!) / 2 ** 20),
  );

/** CPU seconds per 1,000 checks of each process, and Redis per check, over `count` checks of `kind`. */
async function measure(
  stack: RunningStack,
  redis: { server: ChildProcess; client: Redis } | undefined,
  run: { tokens: string[]; texts: BenchText[]; count: number; kind: CheckKind },
): Promise<Measured> {
  await checkThrough(stack.gateway, run.tokens, run.texts, 200, run.kind);
  const cpuBefore = cpuOf(stack, redis?.server);
  const before = redis && (await redisCounters(redis.client));
  const from = Number(process.hrtime.bigint() / 1000n);
  await checkThrough(stack.gateway, run.tokens, run.texts, run.count, run.kind);
  const window = { from, to: Number(process.hrtime.bigint() / 1000n) };
  const after = redis && (await redisCounters(redis.client));
  const cpuAfter = cpuOf(stack, redis?.server);
  const per1000 = (value: number) => (value * 1000) / run.count;
  const measured: Measured = {
    window,
    checksPerSecond: (run.count * 1e6) / (window.to - window.from),
    cpuPer1000: Object.fromEntries(
      Object.keys(cpuAfter).map((name) => [name, per1000(cpuAfter[name]! - cpuBefore[name]!)]),
    ),
  };
  if (before && after)
    measured.redis = {
      opsPerCheck: (after.ops - before.ops) / run.count,
      bytesPerCheck: (after.bytes - before.bytes) / run.count,
      memoryPerCheck: (after.memory - before.memory) / run.count,
    };
  return measured;
}

/**
 * The stack as processes (own redis-server in `redis` mode), four learning clients: each checks 50 texts and
 * reports them (learning), then per kind of check (text, and the `kinds` asked for) a warm-up of 200 and
 * `checks` measured checks by the four at once.
 */
export async function runStack(options: StackOptions): Promise<StackFigures> {
  const redisPort = options.mode === 'redis' ? await freePort() : undefined;
  const redisServer = redisPort ? await startRedisServer(redisPort) : undefined;
  const redisClient = redisPort ? new Redis(redisPort, '127.0.0.1') : undefined;
  const redis = redisServer && redisClient && { server: redisServer, client: redisClient };
  const clients = Array.from({ length: CLIENTS }, (_, i) => `bench-client-${i}`);
  const stack = await startBenchStack(options, clients, redisPort);
  try {
    const tokens = await Promise.all(clients.map((id) => serverToken(stack.gateway, id)));
    const learning = await checkThrough(stack.gateway, tokens, options.texts, CLIENTS * 50);
    const beforeReports = redisClient && (await redisCounters(redisClient));
    const reports = await reportThrough(stack.gateway, tokens, learning);
    const afterReports = redisClient && (await redisCounters(redisClient));
    const run = { tokens, texts: options.texts, count: options.checks };
    const figures: StackFigures = {
      mode: options.mode,
      checks: options.checks,
      ...(await measure(stack, redis, { ...run, kind: 'text' })),
      detectorRssMb: detectorRssMb(stack),
      kinds: {},
    };
    for (const kind of options.kinds ?? [])
      figures.kinds[kind] = await measure(stack, redis, { ...run, kind });
    if (beforeReports && afterReports)
      figures.reports = {
        opsPerReport: (afterReports.ops - beforeReports.ops) / reports,
        bytesPerReport: (afterReports.bytes - beforeReports.bytes) / reports,
      };
    return figures;
  } finally {
    await stack.stop();
    redisClient?.disconnect();
    redisServer?.kill();
  }
}

/** A temporary folder for `--cpu-prof-dir`. */
export const profileDirectory = () => mkdtempSync(join(tmpdir(), 'side-by-side-profile-'));
