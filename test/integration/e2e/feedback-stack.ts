import { randomUUID } from 'node:crypto';
import { startStack, type Stack } from '@spam-check/process-kit';
import { amqpUrl, redisUrl, runAccount, runQueueEnv, writeBootstrapFile } from '@spam-check/test-support';
import { obtainToken, postJson } from './client';
import { removeRunKeys } from './redis-keys';
import { removeRunQueues } from '../../../services/gateway/test/integration/support/queues';

/**
 * The stack of the feedback tests, started before the calling suite's tests and stopped after them, with two
 * clients of one run: with Redis and RabbitMQ (step-by-step hybrid checks over RPC), or in embedded mode
 * (memory, step-by-step over HTTP). `post` sends a check or a report as one of the two.
 */
export function feedbackStackForSuite(mode: 'redis' | 'embedded') {
  const run = randomUUID().slice(0, 8);
  const user = (name: string) => runAccount(`${name}-${run}`);
  const first = user('first');
  const second = user('second');
  const gateway = { id: `gateway-${run}`, secret: `gateway-${randomUUID()}` };
  const state: { stack?: Stack; tokens: Record<'first' | 'second', string> } = {
    tokens: { first: '', second: '' },
  };

  beforeAll(async () => {
    const client = (account: typeof first) => ({
      id: account.client,
      secret: account.secret,
      grants: ['password'],
      scopes: ['spam:check'],
    });
    const bootstrap = writeBootstrapFile({
      clients: [
        client(first),
        client(second),
        { id: gateway.id, secret: gateway.secret, grants: [], scopes: ['auth:introspect'] },
      ],
      users: [first, second].map(({ username, password }) => ({ username, password })),
    });
    const infrastructure =
      mode === 'redis'
        ? {
            REDIS_URL: redisUrl(),
            AMQP_URL: amqpUrl(),
            AUTH_REDIS_PREFIX: `fb-${run}:auth:`,
            REDIS_KEY_PREFIX: `fb-${run}:gateway:`,
            EMAIL_FEEDBACK_PREFIX: `fb-${run}:email-feedback:`,
            TEXT_FEEDBACK_PREFIX: `fb-${run}:text-feedback:`,
            AUTH_REVOCATION_CHANNEL: `fb-${run}:revocations`,
            REVOCATION_CHANNEL: `fb-${run}:revocations`,
            ...runQueueEnv(`fb-${run}:`),
          }
        : { REDIS_URL: undefined, AMQP_URL: undefined };
    state.stack = await startStack(
      {
        ...infrastructure,
        AUTH_BOOTSTRAP_FILE: bootstrap,
        GATEWAY_CLIENT_ID: gateway.id,
        GATEWAY_CLIENT_SECRET: gateway.secret,
        EMAIL_DNS_CHECK: 'off',
        OPENAI_API_KEY: undefined,
        // Two reports a second per client, two seconds of them queued: the pace test below fills the queue.
        TEXT_FEEDBACK_REPORTS_PER_SECOND: '2',
        // Auth's provisioning at start and the gateway's calls to auth must not give up on a loaded machine.
        AUTH_REDIS_TIMEOUT_MS: '5000',
        AUTH_TIMEOUT_MS: '10000',
      },
      { readyTimeoutMs: 150_000 },
    );
    for (const [name, account] of [
      ['first', first],
      ['second', second],
    ] as const) {
      const issued = await obtainToken(state.stack.gateway, '/', account);
      expect(issued.status).toBe(200);
      state.tokens[name] = issued.body.access_token;
    }
  }, 200_000);

  afterAll(async () => {
    await state.stack?.stop();
    if (mode === 'redis') {
      await removeRunKeys(`fb-${run}:`);
      await removeRunQueues(`fb-${run}:`);
    }
  });

  const post = (who: 'first' | 'second', path: string, body: unknown, headers: Record<string, string> = {}) =>
    postJson(`${state.stack!.gateway}${path}`, state.tokens[who], body, headers);
  return { post, run };
}
