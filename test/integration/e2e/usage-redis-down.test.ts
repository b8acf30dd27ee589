import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import {
  freePort,
  spawnService,
  stopService,
  waitForReady,
  type ServiceName,
  type ServiceProcess,
} from '@spam-check/process-kit';
import { redisUrl, runAccount, startRedisServer, writeBootstrapFile } from '@spam-check/test-support';
import { obtainToken, postJson, request } from './client';
import { removeRunKeys } from './redis-keys';

// Usage counting (docs/design.md, Administration, stats) must never slow or fail a check: the gateway's Redis
// freezes, the check is still answered, and the count that was lost is logged. Auth keeps the shared Redis.
describe('when the gateway Redis stops answering, checks are still answered and the lost counts logged', () => {
  const run = randomUUID().slice(0, 8);
  const credentials = runAccount(`usage-${run}`);
  let redis: ChildProcess;
  let services: ServiceProcess[] = [];
  let gateway: ServiceProcess;

  beforeAll(async () => {
    const redisPort = await freePort();
    // Its own redis-server (never the shared one): it is frozen with SIGSTOP below.
    redis = await startRedisServer(redisPort);
    const bootstrap = writeBootstrapFile({
      clients: [
        {
          id: credentials.client,
          secret: credentials.secret,
          grants: ['password'],
          scopes: ['spam:check'],
        },
      ],
      users: [{ username: credentials.username, password: credentials.password }],
    });
    const names: ServiceName[] = ['auth', 'email-detector', 'text-detector', 'gateway'];
    const ports = Object.fromEntries(await Promise.all(names.map(async (name) => [name, await freePort()])));
    const gatewayClient = { id: `gateway-${run}`, secret: `gateway-${randomUUID()}` };
    const env = {
      LOG_LEVEL: 'info',
      AUTH_BOOTSTRAP_FILE: bootstrap,
      GATEWAY_CLIENT_ID: gatewayClient.id,
      GATEWAY_CLIENT_SECRET: gatewayClient.secret,
      EMAIL_DNS_CHECK: 'off',
      OPENAI_API_KEY: undefined,
      AMQP_URL: undefined,
      AUTH_URL: `http://127.0.0.1:${ports.auth}`,
      EMAIL_DETECTOR_URL: `http://127.0.0.1:${ports['email-detector']}`,
      TEXT_DETECTOR_URL: `http://127.0.0.1:${ports['text-detector']}`,
    };
    services = [
      spawnService(
        'auth',
        { ...env, REDIS_URL: redisUrl(), AUTH_REDIS_PREFIX: `usage-${run}:auth:` },
        ports.auth,
      ),
      spawnService('email-detector', { ...env, REDIS_URL: undefined }, ports['email-detector']),
      spawnService('text-detector', { ...env, REDIS_URL: undefined }, ports['text-detector']),
    ];
    gateway = spawnService(
      'gateway',
      {
        ...env,
        REDIS_URL: `redis://127.0.0.1:${redisPort}`,
        GATEWAY_MANAGEMENT_PORT: String(await freePort()),
        // The rate limit would need Redis before the check (and 503 without it, as it always did).
        RATE_LIMIT_REQUESTS: '0',
        // Not this test's subject (detector-down.test.ts): on a loaded machine a detector that did not answer
        // two probes in time would be refused here for half a second.
        DETECTOR_PROBE_INTERVAL_MS: '0',
      },
      ports.gateway,
    );
    services.push(gateway);
    await Promise.all(services.map((service) => waitForReady(service)));
  }, 60_000);

  afterAll(async () => {
    redis?.kill('SIGCONT');
    await Promise.all(services.map(stopService));
    if (redis && redis.exitCode === null) {
      redis.kill('SIGTERM');
      await once(redis, 'exit');
    }
    await removeRunKeys(`usage-${run}:`);
  });

  it('answers the check at once, before the lost count is even noticed, and logs it', async () => {
    const issued = await obtainToken(gateway.url, '/', credentials);
    expect(issued.status).toBe(200);
    const token = issued.body.access_token as string;
    const check = () => postJson(`${gateway.url}/api/v1/spam/mail`, token, { email: 'anna@example.org' });
    expect((await check()).status).toBe(200);

    redis.kill('SIGSTOP');
    const answer = await check();
    expect({ status: answer.status, body: answer.body }).toMatchObject({ status: 200 });
    expect(answer.body.verdict).toBeDefined();
    // The count is still waiting for the frozen Redis: the answer did not wait for it.
    expect(gateway.output()).not.toContain('usage count lost');
    const text = await postJson(`${gateway.url}/api/v1/spam/text`, token, { title: 'Hallo', body: 'Danke!' });
    // On a failure, what the gateway logged says why (a detector marked down, a broken connection, ...).
    const log = text.status === 200 ? '' : gateway.output();
    expect({ status: text.status, body: text.body, log }).toMatchObject({ status: 200 });

    const deadline = Date.now() + 10_000;
    while (!gateway.output().includes('usage count lost') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(gateway.output()).toContain('usage count lost');
    expect(gateway.output()).toContain(`"client_ids":["${credentials.client}"]`);

    redis.kill('SIGCONT');
    const metrics = await request(`${gateway.managementUrl}/metrics`);
    expect(metrics.body).toMatch(/gateway_usage_counts_lost_total\{kind="check",service="gateway"\} [1-9]/);
  });
});
