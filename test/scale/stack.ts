import { randomUUID } from 'node:crypto';
import { startStack, type Stack } from '@spam-check/process-kit';
import { amqpUrl, runAccount, runQueueEnv, runStackEnv } from '@spam-check/test-support';
import { removeRunQueues } from '../../services/gateway/test/integration/support/queues';
import { callJson, obtainToken, request } from '../integration/e2e/client';

/** How the services find Redis: only the variables of one topology (REDIS_URL is unset for them). */
export type RedisTopologyEnv = Record<
  'REDIS_SENTINELS' | 'REDIS_SENTINEL_NAME' | 'REDIS_CLUSTER_NODES' | 'REDIS_PASSWORD',
  string
>;

export interface StackOnRedis {
  run: string;
  stack: Stack;
  /** A `spam:check` token of the run's client, and the client's id. */
  client: { id: string; token: string };
  /** A `spam:admin` token of the run's administrator. */
  adminToken: string;
  /** A POST of JSON as the run's client. */
  check: (
    path: string,
    body: unknown,
    headers?: Record<string, string>,
    signal?: AbortSignal,
  ) => ReturnType<typeof callJson>;
  /** A GET as the run's client. */
  list: (path: string) => ReturnType<typeof callJson>;
  admin: (method: string, path: string, body?: unknown) => ReturnType<typeof callJson>;
  /** A new `spam:check` token of the run's client, and its revocation. */
  issueToken: () => Promise<string>;
  revokeToken: (token: string) => ReturnType<typeof request>;
}

/**
 * The four services as separate processes, configured for Redis only through `topology` (a Sentinel group or a
 * Redis Cluster of the test's own), with RabbitMQ queues of the run's own on the shared broker (removed by
 * `stack.stop()`). The run's
 * client may send far more than the default rate limit, so that a load test measures Redis, not the limit.
 */
export async function startStackOnRedis(topology: Partial<RedisTopologyEnv>): Promise<StackOnRedis> {
  const run = randomUUID().slice(0, 8);
  const admin = runAccount(`scale-admin-${run}`);
  const account = runAccount(`scale-client-${run}`);
  const runEnv = runStackEnv(`scale-${run}:`, {
    clients: [
      { id: admin.client, secret: admin.secret, grants: ['password'], scopes: ['spam:admin'] },
      { id: account.client, secret: account.secret, grants: ['password'], scopes: ['spam:check'] },
    ],
    users: [
      { username: admin.username, password: admin.password, scopes: ['spam:admin'] },
      { username: account.username, password: account.password },
    ],
  });
  const started = await startStack(
    {
      ...runEnv,
      REDIS_URL: undefined,
      REDIS_SENTINELS: undefined,
      REDIS_SENTINEL_NAME: undefined,
      REDIS_CLUSTER_NODES: undefined,
      REDIS_PASSWORD: undefined,
      ...topology,
      // On a cluster auth keeps every key in one slot (docs/operations.md, "Redis Sentinel and Cluster").
      AUTH_REDIS_PREFIX: `{scale-${run}-auth}:`,
      AMQP_URL: amqpUrl(),
      ...runQueueEnv(`scale-${run}:`),
      EMAIL_DNS_CHECK: 'off',
      OPENAI_API_KEY: undefined,
      TEXT_LLM_MODE: 'never',
      RATE_LIMIT_REQUESTS: '1000000',
      TEXT_FEEDBACK_REPORTS_PER_SECOND: '1000',
      // A loaded machine: auth's provisioning and the gateway's calls to auth must not give up early.
      AUTH_REDIS_TIMEOUT_MS: '5000',
      AUTH_TIMEOUT_MS: '10000',
    },
    { readyTimeoutMs: 150_000 },
  );
  // The run's queues on the shared broker go with the stack.
  const stack: Stack = {
    ...started,
    stop: async () => {
      await started.stop();
      await removeRunQueues(`scale-${run}:`);
    },
  };
  try {
    const tokenOf = async (credentials: typeof admin) => {
      const issued = await obtainToken(stack.gateway, '/', credentials);
      if (issued.status !== 200) throw new Error(`token for ${credentials.client}: ${issued.status}`);
      return issued.body.access_token as string;
    };
    const [token, adminToken] = [await tokenOf(account), await tokenOf(admin)];
    return {
      run,
      stack,
      client: { id: account.client, token },
      adminToken,
      check: (path, body, headers = {}, signal) =>
        callJson('POST', `${stack.gateway}${path}`, token, body, { headers, ...(signal ? { signal } : {}) }),
      list: (path) => callJson('GET', `${stack.gateway}${path}`, token),
      admin: (method, path, body) => callJson(method, `${stack.gateway}${path}`, adminToken, body),
      issueToken: () => tokenOf(account),
      revokeToken: (revoked) =>
        request(`${stack.gateway}/oauth/revoke`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            token: revoked,
            client_id: account.client,
            client_secret: account.secret,
          }),
        }),
    };
  } catch (error) {
    await stack.stop();
    throw error;
  }
}
