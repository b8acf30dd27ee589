import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStack } from '@spam-check/test-support';
import autocannon from 'autocannon';

/**
 * Full stack versus a direct detector call (< 60 s, 127.0.0.1 only). The four services run as processes
 * (startStack); autocannon runs here. Measured: POST /api/v1/spam/mail through the gateway (bearer token
 * validation with its cache, rate limit, validation, proxy) and POST /v1/check on the e-mail detector
 * directly, with the same body and DNS off, so the difference is what the gateway adds.
 * With REDIS_URL set, auth and the gateway use Redis (rate limit counters, revocation channel).
 */
const DURATION_S = 10;
const WARMUP_S = 2;
const CONNECTIONS = 16;
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
    const bootstrap = join(mkdtempSync(join(tmpdir(), 'gateway-bench-')), 'bootstrap.json');
    writeFileSync(
      bootstrap,
      JSON.stringify({
        clients: [{ id: 'demo-client', secret: 'demo-secret', grants: ['password'], scopes: ['spam:check'] }],
        users: [{ username: 'demo', password: 'demo-password' }],
      }),
    );
    Object.assign(env, {
      REDIS_URL: redis,
      AUTH_BOOTSTRAP_FILE: bootstrap,
      AUTH_REDIS_PREFIX: `bench:auth:${unique}:`,
      REDIS_KEY_PREFIX: `bench:gateway:${unique}:`,
      GATEWAY_CLIENT_ID: 'gateway-bench',
      GATEWAY_CLIENT_SECRET: unique,
    });
  }
  return env;
}

async function token(gateway: string): Promise<string> {
  const response = await fetch(`${gateway}/oauth/token`, {
    method: 'POST',
    headers: {
      Authorization: `Basic ${Buffer.from('demo-client:demo-secret').toString('base64')}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=password&username=demo&password=demo-password',
  });
  const body = (await response.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`no token: ${response.status} ${JSON.stringify(body)}`);
  return body.access_token;
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function load(url: string, headers: Record<string, string>, duration: number): Promise<Figures> {
  const result = await autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: BODY,
    connections: CONNECTIONS,
    duration,
  });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx + result.timeouts,
  };
}

async function main(): Promise<void> {
  const stack = await startStack(stackEnv());
  try {
    const bearer = { authorization: `Bearer ${await token(stack.gateway)}` };
    const gatewayUrl = `${stack.gateway}/api/v1/spam/mail`;
    const directUrl = `${stack.services['email-detector'].url}/v1/check`;

    await load(directUrl, {}, WARMUP_S);
    const direct = await load(directUrl, {}, DURATION_S);
    await load(gatewayUrl, bearer, WARMUP_S);
    const full = await load(gatewayUrl, bearer, DURATION_S);

    const row = (name: string, f: Figures) =>
      `${name.padEnd(34)} ${String(f.rps).padStart(7)} req/s   p50 ${String(f.p50).padStart(3)} ms   p99 ${String(f.p99).padStart(3)} ms   ${f.errors} errors`;
    console.log(
      `gateway bench: ${CONNECTIONS} connections, ${DURATION_S} s each, DNS off, ${process.env.REDIS_URL ? 'Redis' : 'embedded (no Redis)'}`,
    );
    console.log(row('direct email-detector /v1/check', direct));
    console.log(row('full stack /api/v1/spam/mail', full));
    const ratio = full.rps / direct.rps;
    console.log(
      `throughput ratio full/direct: ${ratio.toFixed(2)} (aim >= 0.5); p50 added: ${full.p50 - direct.p50} ms (aim < 2 ms)`,
    );
    if (direct.errors + full.errors > 0) process.exitCode = 1;
  } finally {
    await stack.stop();
  }
}

void main();
