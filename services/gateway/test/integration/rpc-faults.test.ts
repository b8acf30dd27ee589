import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createMetrics, evaluateReadiness, serve, type RunningService } from '@spam-check/service-kit';
import { freePort, startService, stopService, type ServiceProcess } from '@spam-check/process-kit';
import { amqpUrl, TcpProxy } from '@spam-check/test-support';
import { loadServiceConfig } from '../../src/config';
import { compose } from '../../src/compose';
import { removeStackQueues } from './support/queues';
import { json, obtainToken, silentLogger, startAuth, type Running } from './support/servers';

/**
 * Step-by-step hybrid checks over the real RabbitMQ with the real e-mail and text detector processes as
 * consumers; the gateway reaches the broker through a TCP proxy the test can freeze (a partition).
 * DETECTOR_TIMEOUT_MS stays at its 10 s default: a dependency that is down must answer 503 long before it.
 */
describe('step-by-step hybrid checks when RabbitMQ or a detector consumer is down', () => {
  const unique = randomUUID();
  const queues = {
    EMAIL_RPC_QUEUE: `test.gateway.faults.${unique}.email`,
    TEXT_RPC_QUEUE: `test.gateway.faults.${unique}.text`,
    WEBHOOK_QUEUE: `test.gateway.faults.${unique}.webhooks`,
  };
  const detectorEnv = {
    // The detectors keep their feedback in memory: nothing of this test is left in the shared Redis.
    REDIS_URL: undefined,
    AMQP_URL: amqpUrl(),
    ...queues,
    EMAIL_DNS_CHECK: 'off',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'test',
  };
  let auth: Running;
  let proxy: TcpProxy;
  let emailDetector: ServiceProcess;
  let textDetector: ServiceProcess;
  let gateway: { url: string; service: RunningService; ready: () => Promise<boolean> };
  let token: string;

  const ports = { 'email-detector': 0, 'text-detector': 0 };

  /**
   * For the hook and the tests that start detector processes: a start is bounded by its own CPU time
   * (`startService`), which a loaded machine does not stretch; a detector needs about a second of it, but on
   * the clock it took over 15 s at a load of 20. Jest's 30 s clock must not decide first, so it gets the
   * start's own bound on the clock (10 × 20 s).
   */
  const PROCESS_START_MS = 200_000;

  /** Starts a detector, again on the same port when restarted (the gateway's readiness checks that URL). */
  async function startDetector(name: 'email-detector' | 'text-detector'): Promise<ServiceProcess> {
    ports[name] ||= await freePort();
    return startService(name, detectorEnv, ports[name]);
  }

  const stepByStep = async (email = 'anna@example.org') => {
    const startedAt = Date.now();
    const response = await fetch(`${gateway.url}/api/v1/spam/hybrid-check`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
        'X-Internal-Step-By-Step': 'true',
      },
      body: JSON.stringify({ email, title: 'Hello', body: 'Thanks for the article.' }),
    });
    return { response, body: await json(response), elapsedMs: Date.now() - startedAt };
  };

  beforeAll(async () => {
    auth = await startAuth();
    proxy = await TcpProxy.start(amqpUrl(), 5672);
    [emailDetector, textDetector] = await Promise.all([
      startDetector('email-detector'),
      startDetector('text-detector'),
    ]);
    const config = loadServiceConfig({
      LOG_LEVEL: 'silent',
      NODE_ENV: 'test',
      AUTH_URL: auth.url,
      EMAIL_DETECTOR_URL: emailDetector.url,
      TEXT_DETECTOR_URL: textDetector.url,
      AMQP_URL: proxy.url,
      ...queues,
    });
    const started = await compose({ config, logger: silentLogger(), metrics: createMetrics('gateway') });
    const service = await serve(started.app, {
      port: 0,
      host: '127.0.0.1',
      logger: silentLogger(),
      readiness: started.readiness,
      closers: started.closers,
    });
    gateway = {
      url: `http://127.0.0.1:${service.port}`,
      service,
      ready: async () => (await evaluateReadiness(started.readiness)).ready,
    };
    token = await obtainToken(gateway.url);
  }, PROCESS_START_MS);

  afterAll(async () => {
    gateway.service.server.closeAllConnections();
    await gateway.service.stop();
    await Promise.all([stopService(emailDetector), stopService(textDetector), auth.stop()]);
    await proxy.close();
    await removeStackQueues(queues);
  });

  it(
    'when the e-mail detector process is stopped, the check answers 503 with Retry-After at once, not 504',
    async () => {
      expect((await stepByStep()).response.status).toBe(200);

      await stopService(emailDetector);
      const down = await stepByStep();

      expect(down.response.status).toBe(503);
      expect(down.response.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(down.body).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
      expect(down.elapsedMs).toBeLessThan(5000);

      emailDetector = await startDetector('email-detector');
      expect((await stepByStep()).response.status).toBe(200);
    },
    PROCESS_START_MS,
  );

  it(
    'when the e-mail detector dies with the request in hand, the check answers 503 within seconds',
    async () => {
      expect((await stepByStep()).response.status).toBe(200);
      emailDetector.child.kill('SIGSTOP');
      const pending = stepByStep();
      await new Promise((resolve) => setTimeout(resolve, 300));
      const exited = once(emailDetector.child, 'exit');
      emailDetector.child.kill('SIGKILL');
      await exited;
      const down = await pending;

      expect(down.response.status).toBe(503);
      expect(down.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect(down.elapsedMs).toBeLessThan(6000);

      emailDetector = await startDetector('email-detector');
      expect((await stepByStep()).response.status).toBe(200);
    },
    PROCESS_START_MS,
  );

  it('when RabbitMQ goes silent (partition), checks answer 503 within seconds and readiness turns false', async () => {
    expect((await stepByStep()).response.status).toBe(200);
    expect(await gateway.ready()).toBe(true);

    proxy.freeze();
    const first = await stepByStep();
    const next = await stepByStep();
    const readyWhilePartitioned = await gateway.ready();
    proxy.thaw();

    expect(first.response.status).toBe(503);
    expect(first.response.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(first.elapsedMs).toBeLessThan(6000);
    expect(next.response.status).toBe(503);
    expect(next.elapsedMs).toBeLessThan(3000);
    expect(readyWhilePartitioned).toBe(false);

    const deadline = Date.now() + 20_000;
    while (!(await gateway.ready()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect((await stepByStep()).response.status).toBe(200);
  });
});
