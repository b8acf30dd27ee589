import { randomUUID } from 'node:crypto';
import { startStack, type Stack } from '@spam-check/process-kit';
import { redisUrl, runAccount, runClient, runUser, sharedStackEnv } from '@spam-check/test-support';
import { Redis } from 'ioredis';
import { callJson, obtainToken, postJson } from './client';
import { removeRunState } from './redis-keys';
import { removeRunQueues } from '../../../services/gateway/test/integration/support/queues';

type RunAccount = ReturnType<typeof runAccount>;

/**
 * The real stack (auth, both detectors, the gateway, Redis, RabbitMQ) of one suite, started before its tests
 * and stopped after them, with what the run left in Redis removed. Its clients are the run's `names`, each
 * with a user of its own, and an administrator (`spam:admin`); `env` adds what the suite tests. `redis` lets
 * the suite look at what is stored; `post` and `adminCall` call the gateway as a client and as the
 * administrator.
 */
export function runStackForSuite<Name extends string>(
  suite: string,
  names: Name[],
  env: (prefix: string) => Record<string, string>,
) {
  const run = randomUUID().slice(0, 8);
  const prefix = `${suite}-${run}:`;
  const accounts = Object.fromEntries(
    [...names, 'admin' as const].map((name) => [name, runAccount(`${name}-${run}`)]),
  ) as Record<Name | 'admin', RunAccount>;
  const checkers = names.map((name) => accounts[name]);
  const tokens = new Map<string, string>();
  const state = {} as { stack: Stack; redis: Redis };

  beforeAll(async () => {
    state.redis = new Redis(redisUrl());
    state.stack = await startStack(
      {
        ...sharedStackEnv(prefix, {
          clients: [...checkers.map((who) => runClient(who)), runClient(accounts.admin, ['spam:admin'])],
          users: [...checkers.map((who) => runUser(who)), runUser(accounts.admin, ['spam:admin'])],
        }),
        ...env(prefix),
      },
      { readyTimeoutMs: 180_000 },
    );
    for (const who of [...checkers, accounts.admin]) {
      const issued = await obtainToken(state.stack.gateway, '/', who);
      expect(issued.status).toBe(200);
      tokens.set(who.client, issued.body.access_token as string);
    }
  }, 300_000);

  afterAll(async () => {
    await state.stack?.stop();
    state.redis?.disconnect();
    await removeRunState(run, prefix);
    await removeRunQueues(prefix);
  });

  const tokenOf = (who: RunAccount) => tokens.get(who.client) ?? '';
  const post = (who: RunAccount, path: string, body: unknown, headers: Record<string, string> = {}) =>
    postJson(`${state.stack.gateway}${path}`, tokenOf(who), body, headers);
  const adminCall = (method: string, path: string, body?: unknown) =>
    callJson(method, `${state.stack.gateway}${path}`, tokenOf(accounts.admin), body);
  return { run, prefix, accounts, state, tokenOf, post, adminCall };
}
