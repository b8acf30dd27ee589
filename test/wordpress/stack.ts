import { randomBytes, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  clientSettingsSchema,
  clientStatsSchema,
  recentFeedbackSchema,
  type ClientSettings,
  type ClientStats,
  type RecentFeedback,
} from '@spam-check/contracts';
import { startStack, type Stack } from '@spam-check/process-kit';
import { amqpUrl, redisUrl, runQueueEnv, runStackEnv } from '@spam-check/test-support';
import { removeRunQueues } from '../../services/gateway/test/integration/support/queues';
import { obtainToken, request } from '../integration/e2e/client';
import { removeRunKeys } from '../integration/e2e/redis-keys';

export interface WordPressStack {
  stack: Stack;
  /** The site's client of the deployment (client_credentials grant, scope spam:check). */
  client: { id: string; secret: string };
  /** The client's recent feedback as the admin API shows it. */
  recentFeedback: () => Promise<RecentFeedback>;
  /** The client's stats of today as the admin API shows them (reason counts among them). */
  stats: () => Promise<ClientStats>;
  /** The client's settings as the admin API shows them (the site rules the plugin set among them). */
  settings: () => Promise<ClientSettings>;
  stop: () => Promise<void>;
}

/**
 * The real stack as the end-to-end tests start it (separate processes, Redis and RabbitMQ, this run's
 * prefixes), with a client for the WordPress site and an operator who reads the admin API.
 */
export async function startWordPressStack(): Promise<WordPressStack> {
  const run = randomUUID().slice(0, 8);
  const prefix = `wp-${run}:`;
  const client = { id: `wordpress-${run}`, secret: randomBytes(24).toString('base64url') };
  const operator = {
    client: `wp-admin-${run}`,
    secret: randomBytes(24).toString('hex'),
    username: `operator-${run}`,
    password: randomBytes(12).toString('hex'),
  };
  const runEnv = runStackEnv(prefix, {
    clients: [
      { id: client.id, secret: client.secret, grants: ['client_credentials'], scopes: ['spam:check'] },
      {
        id: operator.client,
        secret: operator.secret,
        grants: ['password'],
        scopes: ['spam:check', 'spam:admin'],
      },
    ],
    users: [{ username: operator.username, password: operator.password, scopes: ['spam:admin'] }],
  });
  const removeRun = async () => {
    await removeRunKeys(prefix);
    await removeRunQueues(prefix);
    rmSync(dirname(runEnv.AUTH_BOOTSTRAP_FILE), { recursive: true, force: true });
  };
  // A stack that failed to start has stopped its services; what its auth wrote is removed all the same.
  const stack = await startStack(
    {
      REDIS_URL: redisUrl(),
      AMQP_URL: amqpUrl(),
      ...runQueueEnv(prefix),
      ...runEnv,
      // The site rules the plugin sets live with the run's other keys.
      CLIENT_SETTINGS_PREFIX: `${prefix}settings:`,
      CLIENT_SETTINGS_CHANNEL: `${prefix}settings`,
      EMAIL_DNS_CHECK: 'off',
      OPENAI_API_KEY: undefined,
      // A person in this test takes a little over a second to fill the form (below, a bot).
      FORM_MIN_SECONDS: '1',
    },
    { readyTimeoutMs: 180_000 },
  ).catch(async (error: unknown) => {
    await removeRun();
    throw error;
  });
  // One token for the whole run: a new password grant per poll would run into auth's brute-force limit.
  let operatorToken: string | undefined;
  const signIn = async () => {
    const issued = await obtainToken(stack.gateway, '/', operator);
    if (issued.status !== 200)
      throw new Error(`operator token: ${issued.status} ${JSON.stringify(issued.body)}`);
    return issued.body.access_token as string;
  };
  const admin = async (path: string) => {
    operatorToken ??= await signIn();
    const answer = await request(`${stack.gateway}/api/v1/admin/clients/${client.id}/${path}`, {
      headers: { authorization: `Bearer ${operatorToken}` },
    });
    if (answer.status !== 200)
      throw new Error(`admin ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body as unknown;
  };
  const recentFeedback = async () => recentFeedbackSchema.parse(await admin('feedback'));
  const stats = async () => clientStatsSchema.parse(await admin('stats'));
  const settings = async () => clientSettingsSchema.parse(await admin('settings'));
  const stop = async () => {
    await stack.stop();
    await removeRun();
  };
  return { stack, client, recentFeedback, stats, settings, stop };
}
