import { randomUUID } from 'node:crypto';
import { createLogger, createMetrics, createReadiness, serve, type Env } from '@spam-check/service-kit';
import { redisUrl, removeKeysUnder } from '@spam-check/test-support';
import { Redis } from 'ioredis';
import { createApp } from '../../src/app';
import { loadServiceConfig } from '../../src/config';
import { createStore } from '../../src/data-access/create-store';
import type { AuthStore } from '../../src/domain/store';
import { createAccounts } from '../../src/domain/accounts';
import { createSecretHasher } from '../../src/domain/secrets';

export const APP_CLIENT = { id: 'app', secret: 'app-secret' };
export const GATEWAY = { id: 'gateway-test', secret: 'gateway-test-secret' };
export const ALICE = { username: 'alice', password: 'alice-password' };

export type StoreKind = 'redis' | 'memory';

export interface Harness {
  url: string;
  store: AuthStore;
  prefix: string;
  channel: string;
  accounts: ReturnType<typeof createAccounts>;
  stop: () => Promise<void>;
}

/** Keys and channel unique to one test, so tests share the machine's Redis without touching each other. */
export function uniqueNames() {
  const id = randomUUID();
  return { prefix: `test:auth:${id}:`, channel: `test:auth:revocations:${id}` };
}

export function testEnv(kind: StoreKind, extra: Env = {}): Env {
  const { prefix, channel } = uniqueNames();
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    AUTH_SCRYPT_COST: '1024',
    AUTH_REDIS_PREFIX: prefix,
    AUTH_REVOCATION_CHANNEL: channel,
    ...(kind === 'redis' ? { REDIS_URL: redisUrl() } : {}),
    ...extra,
  };
}

/** Deletes every key under a prefix (never FLUSHDB: the Redis is shared). */
export async function deletePrefix(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  try {
    await removeKeysUnder(redis, prefix);
  } finally {
    redis.disconnect();
  }
}

/** The auth service on port 0 with an app client, an introspection client and a user. */
export async function startAuth(kind: StoreKind = 'redis', extra: Env = {}): Promise<Harness> {
  const env = testEnv(kind, extra);
  const config = loadServiceConfig(env);
  const store = await createStore(config, createLogger({ service: 'auth-test', level: 'silent' }));
  const hasher = createSecretHasher(config.AUTH_SCRYPT_COST);
  const accounts = createAccounts(store, hasher);
  try {
    return await serveWith(config, store, hasher, accounts);
  } catch (error) {
    await store.close();
    if (config.REDIS_URL) await deletePrefix(config.REDIS_URL, config.AUTH_REDIS_PREFIX);
    throw error;
  }
}

/**
 * The auth service started anew before each test of the calling suite and stopped after it: the object
 * returned holds the running service's fields during each test.
 */
export function authForEachTest(kind: StoreKind = 'redis', extra: Env = {}): Harness {
  const h = {} as Harness;
  beforeEach(async () => {
    Object.assign(h, await startAuth(kind, extra));
  });
  afterEach(() => h.stop());
  return h;
}

async function serveWith(
  config: ReturnType<typeof loadServiceConfig>,
  store: AuthStore,
  hasher: ReturnType<typeof createSecretHasher>,
  accounts: ReturnType<typeof createAccounts>,
): Promise<Harness> {
  const logger = createLogger({ service: 'auth', level: 'silent' });
  await accounts.apply({
    clients: [
      { ...APP_CLIENT, grants: ['password', 'refresh_token'], scopes: ['spam:check', 'spam:extra'] },
      { ...GATEWAY, grants: [], scopes: ['auth:introspect'] },
    ],
    users: [ALICE],
  });
  const readiness = createReadiness({ store: () => store.ping() });
  const app = createApp({ config, logger, metrics: createMetrics('auth'), readiness, store, hasher });
  const service = await serve(app, { port: 0, host: '127.0.0.1', logger, readiness });
  return {
    url: `http://127.0.0.1:${service.port}`,
    store,
    prefix: config.AUTH_REDIS_PREFIX,
    channel: config.AUTH_REVOCATION_CHANNEL,
    accounts,
    stop: async () => {
      await service.stop();
      await store.close();
      if (config.REDIS_URL) await deletePrefix(config.REDIS_URL, config.AUTH_REDIS_PREFIX);
    },
  };
}

export type Json = any;

export interface Answer {
  status: number;
  headers: Headers;
  body: Json;
}

export const json = async (response: Response): Promise<Json> => (await response.json()) as Json;

export const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

export async function postForm(
  url: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

export const passwordGrant = (h: Harness, user = ALICE, extra: Record<string, string> = {}, headers = {}) =>
  postForm(
    `${h.url}/oauth/token`,
    { grant_type: 'password', username: user.username, password: user.password, ...extra },
    { Authorization: basic(APP_CLIENT.id, APP_CLIENT.secret), ...headers },
  );

export const refreshGrant = (h: Harness, refreshToken: string, extra: Record<string, string> = {}) =>
  postForm(
    `${h.url}/oauth/token`,
    { grant_type: 'refresh_token', refresh_token: refreshToken, ...extra },
    { Authorization: basic(APP_CLIENT.id, APP_CLIENT.secret) },
  );

export const introspect = (h: Harness, token: string) =>
  postForm(`${h.url}/oauth/introspect`, { token }, { Authorization: basic(GATEWAY.id, GATEWAY.secret) });

export const revoke = (h: Harness, token: string, extra: Record<string, string> = {}) =>
  postForm(
    `${h.url}/oauth/revoke`,
    { token, ...extra },
    { Authorization: basic(APP_CLIENT.id, APP_CLIENT.secret) },
  );
