import http from 'node:http';
import { createRpcClient, type RpcClient } from '@spam-check/amqp-rpc';
import { connectClientSettings, type ClientSettingsStore } from '@spam-check/client-settings';
import {
  Counter,
  connectRedis,
  createReadiness,
  memoryCheckMemory,
  redisCheckMemory,
  type Closer,
  type ServiceContext,
  type StartedService,
} from '@spam-check/service-kit';
import { createApp } from './app';
import { createAuthAdmin } from './data-access/auth-admin';
import { redisUsageStore, type UsageStore } from './data-access/usage-store';
import {
  memoryConsoleSessions,
  redisConsoleSessions,
  type ConsoleSessionStore,
} from './data-access/console-sessions';
import type { ServiceConfig } from './config';
import { httpDetectors } from './data-access/detector-client';
import { httpBatchTransport, httpTransport, rpcTransport } from './data-access/detectors';
import { httpPost, upstream, type Upstream } from './data-access/http-post';
import { createTokenIntrospector } from './data-access/introspection';
import { memoryRateLimitStore, redisRateLimitStore } from './data-access/rate-limit-store';
import { subscribeToRevocations } from './data-access/revocations';
import { TokenCache } from './data-access/token-cache';
import { failedTokenLimit } from './domain/failed-token-limit';
import { watchDetector } from './data-access/detector-health';

/** Readiness of a dependency over HTTP: its `/livez` answers 200 (its own readiness is its business). */
async function reachable(agent: Upstream, url: string): Promise<void> {
  const answer = await httpPost(new URL('/livez', url), {
    agent,
    method: 'GET',
    headers: {},
    body: '',
    timeoutMs: 900,
  });
  if (answer.status !== 200) throw new Error(`answered ${answer.status}`);
}

/**
 * The gateway wired from its configuration, top to bottom: keep-alive agents, the token introspector and its
 * cache (evicted over Redis pub/sub), the Redis stores (rate limits, usage, hybrid checks, client settings),
 * the detector transports, the app, its readiness and closers. `main.ts` hands it to `runService`; tests call
 * it and serve the app on port 0.
 */
export async function compose({
  config,
  logger,
  metrics,
}: ServiceContext<ServiceConfig>): Promise<StartedService> {
  const closers: Closer[] = [];
  const agents = { auth: upstream(), email: upstream(), text: upstream(), self: upstream() };
  // http-proxy-middleware (the OAuth endpoints) takes a `node:http` agent.
  const proxyAgent = new http.Agent({
    keepAlive: true,
    maxSockets: 256,
    maxFreeSockets: 64,
    scheduling: 'lifo',
  });
  closers.push({
    name: 'http agents',
    close: async () => {
      proxyAgent.destroy();
      await Promise.all(Object.values(agents).map((agent) => agent.destroy()));
    },
  });

  if (config.embedded.credentials)
    logger.warn(
      'GATEWAY_CLIENT_ID / GATEWAY_CLIENT_SECRET not set: using the embedded development credentials',
    );
  if (config.embedded.redis)
    logger.warn(
      { token_cache_ttl_ms: config.tokenCacheTtlMs },
      'REDIS_URL not set: rate limits in memory, no revocation channel (token cache kept short)',
    );
  if (config.embedded.amqp) logger.warn('AMQP_URL not set: step-by-step hybrid checks run over HTTP');
  if (config.console.demoClient)
    logger.warn('CONSOLE_CLIENT_ID / CONSOLE_CLIENT_SECRET not set: the console signs in with demo-admin');

  const cache = new TokenCache(config.TOKEN_CACHE_MAX_ENTRIES, config.tokenCacheTtlMs);
  const introspector = createTokenIntrospector({
    authUrl: config.AUTH_URL,
    clientId: config.gatewayClient.id,
    clientSecret: config.gatewayClient.secret,
    timeoutMs: config.AUTH_TIMEOUT_MS,
    agent: agents.auth,
    cache,
    lookups: new Counter({
      name: 'gateway_token_lookups_total',
      help: 'Token validations by outcome (cache_hit, joined, introspected)',
      labelNames: ['outcome'] as const,
      registers: [metrics.registry],
    }),
  });

  const checks: Record<string, () => Promise<void>> = {
    auth: () => reachable(agents.auth, config.AUTH_URL),
    'email-detector': () => reachable(agents.email, config.EMAIL_DETECTOR_URL),
    'text-detector': () => reachable(agents.text, config.TEXT_DETECTOR_URL),
  };

  let settings: ClientSettingsStore | undefined;
  let usage: UsageStore | undefined;
  let hybrids = memoryCheckMemory(config.FEEDBACK_RETENTION_SECONDS);
  let rateLimits = memoryRateLimitStore(config.RATE_LIMIT_REQUESTS);
  let failedTokenStore = memoryRateLimitStore(config.FAILED_TOKEN_LIMIT);
  let consoleSessionStore: ConsoleSessionStore = memoryConsoleSessions();
  if (config.REDIS_URL) {
    // Auto-pipelining (kit default): the rate limit hits of all requests read in one event loop turn go to
    // Redis in one write (and come back in one read), instead of one write per request.
    const [connection, subscription] = await Promise.all([
      connectRedis({ url: config.REDIS_URL, name: 'redis', logger }),
      connectRedis({ url: config.REDIS_URL, name: 'redis subscriber', logger, subscriber: true }),
    ]);
    closers.push(connection.closer, subscription.closer);
    const redis = connection.client;
    rateLimits = redisRateLimitStore(redis, config.REDIS_KEY_PREFIX, config.RATE_LIMIT_REQUESTS);
    consoleSessionStore = redisConsoleSessions(redis, config.REDIS_KEY_PREFIX);
    hybrids = redisCheckMemory(redis, `${config.REDIS_KEY_PREFIX}hybrid:`, config.FEEDBACK_RETENTION_SECONDS);
    failedTokenStore = redisRateLimitStore(
      redis,
      `${config.REDIS_KEY_PREFIX}failed-tokens:`,
      config.FAILED_TOKEN_LIMIT,
    );
    const revocations = subscribeToRevocations({
      subscriber: subscription.client,
      channel: config.REVOCATION_CHANNEL,
      introspector,
      logger,
    });
    settings = await connectClientSettings(config.REDIS_URL, logger, {
      prefix: config.CLIENT_SETTINGS_PREFIX,
      channel: config.CLIENT_SETTINGS_CHANNEL,
    });
    const settingsStore = settings;
    closers.push({ name: 'client settings', close: () => settingsStore.close() });
    usage = redisUsageStore({
      redis,
      prefix: config.REDIS_KEY_PREFIX,
      logger,
      lost: new Counter({
        name: 'gateway_usage_counts_lost_total',
        help: 'Usage counts (checks, feedback) that Redis did not take, by kind',
        labelNames: ['kind'] as const,
        registers: [metrics.registry],
      }),
    });
    const usageStore = usage;
    closers.unshift({ name: 'usage counts', close: () => usageStore.flush() });
    checks.redis = connection.check;
    checks.revocations = async () => {
      if (!revocations.subscribed()) throw new Error('not subscribed');
    };
  }

  const watch = (name: string, url: string, agent: Upstream) =>
    watchDetector({
      name,
      url,
      agent,
      intervalMs: config.DETECTOR_PROBE_INTERVAL_MS,
      downAfter: config.DETECTOR_DOWN_AFTER_PROBES,
      logger,
    });
  const health = {
    email: watch('email-detector', config.EMAIL_DETECTOR_URL, agents.email),
    text: watch('text-detector', config.TEXT_DETECTOR_URL, agents.text),
  };
  closers.push({
    name: 'detector health watch',
    close: async () => Object.values(health).forEach((watched) => watched.stop()),
  });
  const detectors = httpDetectors(
    { email: config.EMAIL_DETECTOR_URL, text: config.TEXT_DETECTOR_URL },
    agents,
    health,
  );
  const overHttp = httpTransport({ ...detectors, timeoutMs: config.DETECTOR_TIMEOUT_MS });
  let stepByStep = overHttp;
  let rpc: RpcClient | undefined;
  if (config.AMQP_URL) {
    rpc = createRpcClient({ url: config.AMQP_URL, logger });
    stepByStep = rpcTransport({
      client: rpc,
      emailQueue: config.EMAIL_RPC_QUEUE,
      textQueue: config.TEXT_RPC_QUEUE,
      timeoutMs: config.DETECTOR_TIMEOUT_MS,
    });
    const client = rpc;
    checks.rabbitmq = async () => {
      if (!client.isConnected()) throw new Error('not connected');
    };
    closers.unshift({ name: 'rabbitmq', close: () => client.close() });
  }

  const readiness = createReadiness(checks);
  const app = createApp({
    config,
    logger,
    metrics,
    readiness,
    introspector,
    rateLimits,
    failedTokens: failedTokenLimit(
      failedTokenStore,
      config.FAILED_TOKEN_LIMIT,
      config.FAILED_TOKEN_WINDOW_SECONDS,
    ),
    agents,
    detectors,
    proxyAgent,
    transports: { parallel: overHttp, stepByStep },
    authAdmin: createAuthAdmin({
      authUrl: config.AUTH_URL,
      clientId: config.gatewayClient.id,
      clientSecret: config.gatewayClient.secret,
      timeoutMs: config.AUTH_TIMEOUT_MS,
      agent: agents.auth,
    }),
    settings,
    usage,
    hybrids,
    batches: httpBatchTransport({ ...detectors, timeoutMs: config.DETECTOR_BATCH_TIMEOUT_MS }),
    consoleSessions: consoleSessionStore,
  });
  return { app, readiness, closers };
}
