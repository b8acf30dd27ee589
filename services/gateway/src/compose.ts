import http from 'node:http';
import { createRpcClient } from '@spam-check/amqp-rpc';
import { connectClientSettings, type ClientSettingsStore } from '@spam-check/client-settings';
import { memoryConsoleSessions, redisConsoleSessions, type ConsoleSessionStore } from '@spam-check/console';
import { memoryCheckMemory, redisCheckMemory, type CheckMemory } from '@spam-check/client-state';
import {
  Counter,
  connectRedis,
  type RedisTarget,
  createReadiness,
  type Closer,
  type ServiceContext,
  type StartedService,
} from '@spam-check/service-kit';
import { createApp } from './app';
import { createAuthAdmin } from './data-access/auth-admin';
import { createReview, type Review } from './data-access/review';
import { memoryReviewStore, redisReviewStore, type ReviewStore } from './data-access/review-store';
import { redisUsageStore, type UsageStore } from './data-access/usage-store';
import type { ServiceConfig } from './config';
import { httpDetectors } from './data-access/detector-client';
import { watchDetector } from './data-access/detector-health';
import { httpBatchTransport, httpTransport, rpcTransport } from './data-access/detectors';
import { httpPost, upstream, type Upstream } from './data-access/http-post';
import { createTokenIntrospector, type TokenIntrospector } from './data-access/introspection';
import { memoryRateLimitStore, redisRateLimitStore } from './data-access/rate-limit-store';
import { subscribeToRevocations } from './data-access/revocations';
import { TokenCache } from './data-access/token-cache';
import { failedTokenLimit } from './domain/failed-token-limit';
import type { RateLimitStore } from './domain/rate-limit';
import type { Webhooks } from './entry-points/http/webhooks';
import { startWebhooks } from './webhooks';

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

type Checks = Record<string, () => Promise<void>>;
type Context = ServiceContext<ServiceConfig>;

/** One line per development default in use, so that no one runs them in production unawares. */
function warnAboutDefaults({ config, logger }: Context): void {
  if (config.embedded.credentials)
    logger.warn(
      'GATEWAY_CLIENT_ID / GATEWAY_CLIENT_SECRET not set: using the embedded development credentials',
    );
  if (config.embedded.redis)
    logger.warn(
      { token_cache_ttl_ms: config.tokenCacheTtlMs },
      'Redis not configured (REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES): rate limits in memory, no revocation channel (token cache kept short)',
    );
  if (config.embedded.amqp) logger.warn('AMQP_URL not set: step-by-step hybrid checks run over HTTP');
  if (config.review.contentKeyDefault === 'generated')
    logger.warn('REVIEW_CONTENT_KEY not set: content kept for review uses a key generated for this process');
  if (config.review.contentKeyDefault === 'development')
    logger.warn('REVIEW_CONTENT_KEY not set: content kept for review uses the published development key');
  if (config.console.demoClient)
    logger.warn('CONSOLE_CLIENT_ID / CONSOLE_CLIENT_SECRET not set: the console signs in with demo-admin');
}

/** Keep-alive pools to auth and each detector. */
function httpAgents(closers: Closer[]) {
  const agents = { auth: upstream(), email: upstream(), text: upstream() };
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
  return { agents, proxyAgent };
}

function tokenIntrospector({ config, metrics }: Context, agent: Upstream): TokenIntrospector {
  return createTokenIntrospector({
    authUrl: config.AUTH_URL,
    clientId: config.gatewayClient.id,
    clientSecret: config.gatewayClient.secret,
    timeoutMs: config.AUTH_TIMEOUT_MS,
    agent,
    cache: new TokenCache(config.TOKEN_CACHE_MAX_ENTRIES, config.tokenCacheTtlMs),
    lookups: new Counter({
      name: 'gateway_token_lookups_total',
      help: 'Token validations by outcome (cache_hit, joined, introspected)',
      labelNames: ['outcome'] as const,
      registers: [metrics.registry],
    }),
  });
}

/** What the gateway keeps: in memory without Redis (embedded mode); settings and usage only with Redis. */
interface Stores {
  rateLimits: RateLimitStore;
  failedTokens: RateLimitStore;
  hybrids: CheckMemory;
  consoleSessions: ConsoleSessionStore;
  review: Review;
  settings?: ClientSettingsStore;
  usage?: UsageStore;
  webhooks?: Webhooks;
}

function reviewLimits(config: ServiceConfig) {
  return { retentionSeconds: config.FEEDBACK_RETENTION_SECONDS, maxPerClient: config.review.maxPerClient };
}

/** The review list over `store`: the checks, feedback, erasure and the webhooks' events all go through it. */
function reviewOf(
  { config, logger, metrics }: Context,
  store: ReviewStore,
  settings: ClientSettingsStore | undefined,
): Review {
  return createReview({
    store,
    config: config.review,
    retentionSeconds: config.FEEDBACK_RETENTION_SECONDS,
    settings,
    logger,
    metrics,
  });
}

function memoryStores(context: Context): Stores {
  const { config } = context;
  return {
    rateLimits: memoryRateLimitStore(config.RATE_LIMIT_REQUESTS),
    failedTokens: memoryRateLimitStore(config.FAILED_TOKEN_LIMIT),
    hybrids: memoryCheckMemory(config.FEEDBACK_RETENTION_SECONDS),
    consoleSessions: memoryConsoleSessions(),
    review: reviewOf(context, memoryReviewStore(reviewLimits(config)), undefined),
  };
}

/**
 * The Redis stores, the revocation subscription that evicts the token cache, and their readiness checks.
 * Auto-pipelining (kit default): the rate limit hits of all requests read in one event loop turn go to
 * Redis in one write (and come back in one read), instead of one write per request.
 */
async function redisStores(
  context: Context,
  target: RedisTarget,
  introspector: TokenIntrospector,
  closers: Closer[],
  checks: Checks,
): Promise<Stores> {
  const { config, logger, metrics } = context;
  const [connection, subscription] = await Promise.all([
    connectRedis({ target, name: 'redis', logger }),
    connectRedis({ target, name: 'redis subscriber', logger, subscriber: true }),
  ]);
  closers.push(connection.closer, subscription.closer);
  const redis = connection.client;
  const prefix = config.REDIS_KEY_PREFIX;
  const revocations = subscribeToRevocations({
    subscriber: subscription.client,
    channel: config.REVOCATION_CHANNEL,
    introspector,
    logger,
  });
  const settings = await connectClientSettings(target, logger, {
    prefix: config.CLIENT_SETTINGS_PREFIX,
    channel: config.CLIENT_SETTINGS_CHANNEL,
  });
  closers.push({ name: 'client settings', close: () => settings.close() });
  const usage = redisUsageStore({
    redis,
    prefix,
    logger,
    lost: new Counter({
      name: 'gateway_usage_counts_lost_total',
      help: 'Usage counts (checks, feedback) that Redis did not take, by kind',
      labelNames: ['kind'] as const,
      registers: [metrics.registry],
    }),
  });
  closers.unshift({ name: 'usage counts', close: () => usage.flush() });
  const review = reviewOf(
    context,
    redisReviewStore(redis, `${prefix}review:`, reviewLimits(config)),
    settings,
  );
  closers.unshift({ name: 'review list', close: () => review.recorder.flush() });
  const webhooks = startWebhooks({
    config: config.webhooks,
    amqpUrl: config.AMQP_URL,
    redis,
    prefix,
    settings,
    review,
    logger,
    closers,
  });
  checks.webhooks = async () => {
    if (!webhooks.connected()) throw new Error('webhook queue not connected');
  };
  checks.redis = connection.check;
  checks.revocations = async () => {
    if (!revocations.subscribed()) throw new Error('not subscribed');
  };
  return {
    rateLimits: redisRateLimitStore(redis, prefix, config.RATE_LIMIT_REQUESTS),
    failedTokens: redisRateLimitStore(redis, `${prefix}failed-tokens:`, config.FAILED_TOKEN_LIMIT),
    hybrids: redisCheckMemory(redis, `${prefix}hybrid:`, config.FEEDBACK_RETENTION_SECONDS),
    consoleSessions: redisConsoleSessions(redis, prefix),
    review,
    settings,
    usage,
    webhooks,
  };
}

/** Each detector's health, probed in the background so that a detector down gets a fast 503. */
function detectorHealth(
  { config, logger }: Context,
  agents: { email: Upstream; text: Upstream },
  closers: Closer[],
) {
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
  return health;
}

/** Step-by-step hybrid checks over RabbitMQ RPC, with its readiness check and closer. */
function rpcStepByStep(
  { config, logger }: Context,
  url: readonly string[],
  closers: Closer[],
  checks: Checks,
) {
  const client = createRpcClient({ url, logger, queueType: config.RPC_QUEUE_TYPE });
  checks.rabbitmq = async () => {
    if (!client.isConnected()) throw new Error('not connected');
  };
  closers.unshift({ name: 'rabbitmq', close: () => client.close() });
  return rpcTransport({
    client,
    emailQueue: config.EMAIL_RPC_QUEUE,
    textQueue: config.TEXT_RPC_QUEUE,
    timeoutMs: config.DETECTOR_TIMEOUT_MS,
  });
}

/**
 * The gateway wired from its configuration, top to bottom: keep-alive agents, the token introspector and its
 * cache (evicted over Redis pub/sub), the stores (rate limits, usage, hybrid checks, client settings), the
 * detector health probes and transports, the app, its readiness and closers. `main.ts` hands it to
 * `runService`; tests call it and serve the app on port 0.
 */
export async function compose(context: Context): Promise<StartedService> {
  const { config, logger, metrics } = context;
  warnAboutDefaults(context);
  const closers: Closer[] = [];
  const { agents, proxyAgent } = httpAgents(closers);
  const introspector = tokenIntrospector(context, agents.auth);
  const health = detectorHealth(context, agents, closers);
  // A detector whose readiness check answers is up for the watch too: a gateway that reports ready never
  // refuses a detector that answers (at start-up the watch saw it down until it listened).
  const checks: Checks = {
    auth: () => reachable(agents.auth, config.AUTH_URL),
    'email-detector': () =>
      reachable(agents.email, config.EMAIL_DETECTOR_URL).then(() => health.email.answered()),
    'text-detector': () =>
      reachable(agents.text, config.TEXT_DETECTOR_URL).then(() => health.text.answered()),
  };
  const stores = config.redis
    ? await redisStores(context, config.redis, introspector, closers, checks)
    : memoryStores(context);
  const detectors = httpDetectors(
    { email: config.EMAIL_DETECTOR_URL, text: config.TEXT_DETECTOR_URL },
    agents,
    health,
  );
  const overHttp = httpTransport({ ...detectors, timeoutMs: config.DETECTOR_TIMEOUT_MS });
  const stepByStep = config.AMQP_URL ? rpcStepByStep(context, config.AMQP_URL, closers, checks) : overHttp;

  const readiness = createReadiness(checks);
  const app = createApp({
    config,
    logger,
    metrics,
    readiness,
    introspector,
    rateLimits: stores.rateLimits,
    failedTokens: failedTokenLimit(
      stores.failedTokens,
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
    settings: stores.settings,
    usage: stores.usage,
    hybrids: stores.hybrids,
    batches: httpBatchTransport({ ...detectors, timeoutMs: config.DETECTOR_BATCH_TIMEOUT_MS }),
    consoleSessions: stores.consoleSessions,
    webhooks: stores.webhooks,
    review: stores.review,
  });
  return { app, readiness, closers };
}
