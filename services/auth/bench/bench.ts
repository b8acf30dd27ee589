/**
 * `pnpm --filter @spam-check/auth bench`: token issuance (password grant) and introspection throughput with
 * p50/p99, against the real auth service in its own process (one core) and the Redis of REDIS_URL (default
 * redis://127.0.0.1:6379, loopback only). About 25 s in all; keys live under a unique prefix, deleted after.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const SCRYPT_COST = process.env.AUTH_SCRYPT_COST ?? '16384';
const DURATION_S = 10;

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

/** CPU seconds (user + system) the service process has used so far (Linux /proc). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * "One core" honestly: on Linux with `taskset` and at least two CPUs, the service (all its threads: GC helpers,
 * libuv) is pinned to the last CPU and this process (autocannon) to the others, so the two never share a core
 * and the service's CPU-seconds cannot exceed one per second. Elsewhere nothing is pinned and the report says so.
 */
function pinning(): { command: string; prefix: string[]; note: string } {
  const cpus = availableParallelism();
  let pinned = false;
  if (process.platform === 'linux' && cpus >= 2) {
    try {
      execFileSync('taskset', ['-pc', `0-${cpus - 2}`, String(process.pid)], { stdio: 'ignore' });
      pinned = true;
    } catch {
      pinned = false;
    }
  }
  if (!pinned) return { command: process.execPath, prefix: [], note: 'service not pinned (no taskset)' };
  return {
    command: 'taskset',
    prefix: ['-c', String(cpus - 1), process.execPath],
    note: `service pinned to CPU ${cpus - 1}, autocannon to CPU 0-${cpus - 2}`,
  };
}

/**
 * The machine is shared, so besides wall-clock throughput the bench reports requests per CPU-second of the
 * service process: what one fully available core would sustain.
 */
async function run(title: string, pid: number, options: autocannon.Options): Promise<void> {
  const cpuBefore = cpuSeconds(pid);
  const startedAt = performance.now();
  const result = await autocannon({ duration: DURATION_S, ...options });
  const elapsedS = (performance.now() - startedAt) / 1000;
  const cpu = cpuSeconds(pid) - cpuBefore;
  const ok = result['2xx'];
  console.log(
    `${title.padEnd(34)} ${Math.round(result.requests.average).toString().padStart(6)} req/s   ` +
      `p50 ${result.latency.p50} ms   p99 ${result.latency.p99} ms   ` +
      `${Math.round(ok / cpu)} req per CPU-second of the service (${(cpu / elapsedS).toFixed(2)} CPU-s/s)   ` +
      `(${ok} ok, ${result.non2xx} non-2xx, ${result.errors} errors, ${options.connections} connections)`,
  );
}

async function main(): Promise<void> {
  const host = new URL(REDIS_URL).hostname;
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host))
    throw new Error(`the bench only runs against a loopback Redis, not ${host}`);
  const prefix = `bench:auth:${randomUUID()}:`;
  const dir = mkdtempSync(join(tmpdir(), 'auth-bench-'));
  const bootstrap = join(dir, 'bootstrap.json');
  writeFileSync(
    bootstrap,
    JSON.stringify({
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
    }),
  );
  const port = await freePort();
  const pin = pinning();
  const service = spawn(
    pin.command,
    [...pin.prefix, '--conditions=source', '--import', 'tsx', 'src/main.ts'],
    {
      cwd: join(__dirname, '..'),
      env: {
        ...process.env,
        NODE_ENV: 'development',
        LOG_LEVEL: 'warn',
        HOST: '127.0.0.1',
        AUTH_PORT: String(port),
        REDIS_URL,
        AUTH_REDIS_PREFIX: prefix,
        AUTH_REVOCATION_CHANNEL: `bench:auth:revocations:${randomUUID()}`,
        AUTH_BOOTSTRAP_FILE: bootstrap,
        AUTH_SCRYPT_COST: SCRYPT_COST,
        GATEWAY_CLIENT_ID: 'bench-gateway',
        GATEWAY_CLIENT_SECRET: 'bench-gateway-secret',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; i < 100; i++) {
      const ready = await fetch(`${url}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
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
      `auth bench: Node ${process.version}, load average ${loadavg()[0]?.toFixed(1)}, service in its own process (${pin.note}), Redis ${REDIS_URL}, ${DURATION_S} s each`,
    );
    await run(`token (password, scrypt N=${SCRYPT_COST})`, service.pid!, {
      url: `${url}/oauth/token`,
      method: 'POST',
      connections: 8,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basic('bench-app', 'bench-app-secret'),
      },
      body: form,
    });
    await run('introspection (active token)', service.pid!, {
      url: `${url}/oauth/introspect`,
      method: 'POST',
      connections: 32,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basic('bench-gateway', 'bench-gateway-secret'),
      },
      body: `token=${token}`,
    });
  } finally {
    service.kill('SIGTERM');
    await once(service, 'exit');
    rmSync(dir, { recursive: true, force: true });
    const redis = new Redis(REDIS_URL);
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
    redis.disconnect();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
