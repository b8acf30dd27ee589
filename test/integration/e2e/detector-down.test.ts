import { randomUUID } from 'node:crypto';
import { startStack, type Stack } from '@spam-check/process-kit';
import { redisUrl, runAccount, runStackEnv } from '@spam-check/test-support';
import { Redis } from 'ioredis';
import { obtainToken, postJson, type HttpResult } from './client';
import { removeRunKeys } from './redis-keys';

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// A detector that stopped answering (SIGSTOP: the process lives, its socket accepts, nothing
// answers) costs a client a fast 503 with Retry-After, not the detector timeout, also a client already waiting
// on it when it stopped; feedback on a hybrid check goes to both parts or to none. The four services as separate processes over the shared Redis.
describe('a stalled detector, end to end', () => {
  const run = randomUUID().slice(0, 8);
  const credentials = runAccount(`down-${run}`);
  const emailFeedback = `down-${run}:email-feedback:`;
  let stack: Stack;
  let token: string;

  beforeAll(async () => {
    const runEnv = runStackEnv(`down-${run}:`, {
      clients: [{ id: credentials.client, secret: credentials.secret }],
      users: [{ username: credentials.username, password: credentials.password }],
    });
    stack = await startStack(
      {
        REDIS_URL: redisUrl(),
        AMQP_URL: undefined,
        ...runEnv,
        EMAIL_FEEDBACK_PREFIX: emailFeedback,
        AUTH_SCRYPT_COST: '1024',
      },
      { readyTimeoutMs: 150_000 },
    );
    const issued = await obtainToken(stack.gateway, '/', credentials);
    expect(issued.status).toBe(200);
    token = issued.body.access_token as string;
  }, 180_000);

  afterAll(async () => {
    stack?.services['text-detector'].child.kill('SIGCONT');
    await stack?.stop();
    await removeRunKeys(`down-${run}:`);
  });

  const timed = async (call: () => Promise<HttpResult>) => {
    const started = performance.now();
    const answer = await call();
    return { answer, ms: performance.now() - started };
  };
  const textCheck = () =>
    postJson(`${stack.gateway}/api/v1/spam/text`, token, { title: 'Hallo', body: 'Danke für den Artikel.' });
  /**
   * The first check the gateway lets through: on a loaded machine its probes may have found the detector busy
   * twice in a row just before (then it is refused for a moment, as it should be), so the tests start from a
   * detector the gateway sees answering.
   */
  const answering = async () => {
    for (let tries = 0; tries < 30; tries++) {
      const answer = await textCheck();
      if (answer.status === 200) return answer;
      await delay(500);
    }
    return textCheck();
  };
  const paused = async <T>(act: () => Promise<T>): Promise<T> => {
    const detector = stack.services['text-detector'].child;
    detector.kill('SIGSTOP');
    try {
      // The gateway probes each detector twice a second and calls it down after two probes without answer.
      await delay(3500);
      return await act();
    } finally {
      detector.kill('SIGCONT');
      await delay(1500);
    }
  };

  it('when the text detector is stalled, a text check gets 503 with Retry-After within 1 s', async () => {
    expect((await answering()).status).toBe(200);
    const { answer, ms } = await paused(() => timed(textCheck));
    expect(answer.status).toBe(503);
    expect(answer.body.code).toBe('SERVICE_UNAVAILABLE');
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(ms).toBeLessThan(1000);
    // Back: checks are answered again.
    expect((await answering()).status).toBe(200);
  }, 60_000);

  it('when checks are already waiting on the text detector as it stalls, they get 503 with Retry-After once the gateway marks it down, not the 504 of the timeout', async () => {
    expect((await answering()).status).toBe(200);
    const detector = stack.services['text-detector'].child;
    detector.kill('SIGSTOP');
    let waiting: HttpResult[];
    try {
      // Sent at once, before the probes can have marked it down: these wait on a detector that does not answer.
      waiting = await Promise.all(Array.from({ length: 4 }, textCheck));
    } finally {
      detector.kill('SIGCONT');
    }
    for (const answer of waiting) {
      expect(answer.status).toBe(503);
      expect(answer.body.code).toBe('SERVICE_UNAVAILABLE');
      expect(answer.headers.get('retry-after')).toBe('1');
    }
    expect(stack.services.gateway.output()).toMatch(/detector down: its calls, waiting and new/);
    // Back: checks are answered again.
    expect((await answering()).status).toBe(200);
  }, 60_000);

  it('when feedback on a hybrid check meets a stalled text detector, neither part is applied and it is 503 with Retry-After', async () => {
    const email = `anna@zorblax-${run}.example`;
    expect((await answering()).status).toBe(200);
    const hybrid = await postJson(`${stack.gateway}/api/v1/spam/hybrid-check`, token, {
      email,
      title: 'Hallo',
      body: 'Schöner Beitrag, danke für die Mühe.',
    });
    expect(hybrid.status).toBe(200);
    const report = () =>
      postJson(`${stack.gateway}/api/v1/spam/feedback`, token, { check_id: hybrid.body.id, label: 'spam' });

    const { answer, ms } = await paused(() => timed(report));
    expect(answer.status).toBe(503);
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(ms).toBeLessThan(1000);
    const redis = new Redis(redisUrl());
    try {
      expect(await redis.keys(`${emailFeedback}reports:*`)).toEqual([]);
    } finally {
      redis.disconnect();
    }

    const retried = await report();
    expect(retried.status).toBe(200);
    expect(retried.body.applied_to).toEqual(['email', 'text']);
  }, 60_000);
});
