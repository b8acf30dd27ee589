import { randomBytes } from 'node:crypto';
import { DETECTOR_RPC_QUEUES, REVIEW_MAX_KEEP_CONTENT_DAYS } from '@spam-check/contracts';
import { feedbackConfigShape } from '@spam-check/client-state';
import {
  amqpConfigShape,
  ConfigError,
  checkLimitsOf,
  checkLimitsShape,
  clientSettingsConfigShape,
  commonConfigShape,
  env,
  loadConfig,
  redisConfigShape,
  redisTargetOf,
  type RedisConfig,
  secretProblems,
  servicePort,
  type Env,
} from '@spam-check/service-kit';
import { z } from 'zod';

const EMBEDDED_CLIENT_ID = 'gateway';
const EMBEDDED_CLIENT_SECRET = 'gateway-secret';
/** The auth service's demo admin client, which exists outside production (docs/admin.md). */
const DEMO_CONSOLE_CLIENT = { id: 'demo-admin', secret: 'demo-admin-secret' };

/**
 * The key outside production when WEBHOOK_SECRET_KEY is not set: fixed, so that signing secrets survive a
 * restart of a development stack; published here, so production refuses it.
 */
const DEVELOPMENT_WEBHOOK_SECRET_KEY = 'development-webhook-secret-key-not-for-production';
const MIN_KEY_LENGTH = 32;

/** The webhook variables of the gateway (README, configuration table). */
export const webhookConfigShape = {
  /** A 2xx within this time is a delivery; anything else a failed attempt. */
  WEBHOOK_TIMEOUT_MS: env.positiveInt(5000),
  /** How long a delivery is retried before it is given up (fractions allowed). */
  WEBHOOK_RETRY_HOURS: z.coerce.number().positive().default(24),
  /** The first retry's delay; each next one doubles, up to WEBHOOK_RETRY_MAX_DELAY_MS. */
  WEBHOOK_RETRY_BASE_MS: env.positiveInt(10_000),
  WEBHOOK_RETRY_MAX_DELAY_MS: env.positiveInt(3_600_000),
  /** Lets targets on loopback, private and link-local addresses through (tests, closed networks). */
  WEBHOOK_ALLOW_PRIVATE: env.flag(false),
  /** The durable queue of deliveries; its dead-letter and delay queues are named after it. */
  WEBHOOK_QUEUE: z.string().min(1).default('spam-check.webhooks'),
  /** Deliveries held per gateway (the prefetch), and attempts in flight per client within them. */
  WEBHOOK_CONCURRENCY: env.positiveInt(32),
  WEBHOOK_CLIENT_CONCURRENCY: env.positiveInt(2),
  /** Encrypts the stored signing secrets (AES-256-GCM); required in production. */
  WEBHOOK_SECRET_KEY: z.string().optional(),
};

type WebhookEnv = z.output<z.ZodObject<typeof webhookConfigShape>>;

export interface WebhookConfig {
  timeoutMs: number;
  retry: { baseMs: number; maxDelayMs: number; windowMs: number };
  allowPrivate: boolean;
  httpsOnly: boolean;
  queue: string;
  concurrency: number;
  clientConcurrency: number;
  secretKey: string;
  developmentKey: boolean;
}

/** Problems of the webhook variables in production (none elsewhere). */
export function webhookConfigProblems(nodeEnv: string, config: WebhookEnv): string[] {
  if (nodeEnv !== 'production') return [];
  const key = config.WEBHOOK_SECRET_KEY;
  if (key === undefined || key === '')
    return ['WEBHOOK_SECRET_KEY: required in production (encrypts the stored webhook signing secrets)'];
  if (key === DEVELOPMENT_WEBHOOK_SECRET_KEY)
    return ['WEBHOOK_SECRET_KEY: is published in this repository; choose your own'];
  if (key.length < MIN_KEY_LENGTH)
    return [`WEBHOOK_SECRET_KEY: shorter than ${MIN_KEY_LENGTH} characters (openssl rand -hex 32)`];
  return [];
}

export function webhookConfigOf(nodeEnv: string, config: WebhookEnv): WebhookConfig {
  const key = config.WEBHOOK_SECRET_KEY;
  return {
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    retry: {
      baseMs: config.WEBHOOK_RETRY_BASE_MS,
      maxDelayMs: Math.max(config.WEBHOOK_RETRY_BASE_MS, config.WEBHOOK_RETRY_MAX_DELAY_MS),
      windowMs: Math.round(config.WEBHOOK_RETRY_HOURS * 3_600_000),
    },
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
    httpsOnly: nodeEnv === 'production',
    queue: config.WEBHOOK_QUEUE,
    concurrency: config.WEBHOOK_CONCURRENCY,
    clientConcurrency: config.WEBHOOK_CLIENT_CONCURRENCY,
    secretKey: key === undefined || key === '' ? DEVELOPMENT_WEBHOOK_SECRET_KEY : key,
    developmentKey: key === undefined || key === '',
  };
}
/** What the review list (`GET /api/v1/checks`) reads from the environment (README, "Configuration"). */
const reviewConfigShape = {
  REVIEW_CONTENT_KEY: z.string().optional(),
  REVIEW_KEEP_CONTENT_DAYS_DEFAULT: z.coerce
    .number()
    .int()
    .min(0)
    .max(REVIEW_MAX_KEEP_CONTENT_DAYS)
    .default(0),
  REVIEW_MAX_CHECKS_PER_CLIENT: env.positiveInt(100_000),
};

/** Outside production with Redis and without REVIEW_CONTENT_KEY: published here, so production refuses it. */
const DEVELOPMENT_CONTENT_KEY = 'development-review-content-key-not-for-production';

/**
 * The rules of REVIEW_CONTENT_KEY: in production it is required, at least MIN_KEY_LENGTH characters and not
 * published in this repository. Elsewhere a missing key is generated for this process without Redis (nothing
 * outlives it anyway), and is DEVELOPMENT_CONTENT_KEY with Redis, so that kept content survives a restart.
 */
function reviewConfigOf(
  config: RedisConfig & {
    NODE_ENV: string;
    REVIEW_CONTENT_KEY?: string | undefined;
    REVIEW_KEEP_CONTENT_DAYS_DEFAULT: number;
    REVIEW_MAX_CHECKS_PER_CLIENT: number;
  },
) {
  const key = config.REVIEW_CONTENT_KEY === '' ? undefined : config.REVIEW_CONTENT_KEY;
  if (config.NODE_ENV === 'production') {
    const problems =
      key === undefined
        ? ['REVIEW_CONTENT_KEY: required in production (the key of the content kept for review)']
        : [
            ...(key === DEVELOPMENT_CONTENT_KEY
              ? [
                  'REVIEW_CONTENT_KEY: is published in this repository (an example or demo value); choose your own',
                ]
              : secretProblems(config.NODE_ENV, { REVIEW_CONTENT_KEY: key })),
          ];
    if (problems.length === 0 && key !== undefined && key.length < MIN_KEY_LENGTH)
      problems.push(
        `REVIEW_CONTENT_KEY: shorter than ${MIN_KEY_LENGTH} characters; use a random one (openssl rand -hex 32)`,
      );
    if (problems.length > 0) throw new ConfigError(problems);
  }
  const keyDefault: 'development' | 'generated' | null =
    key !== undefined ? null : redisTargetOf(config) ? 'development' : 'generated';
  return {
    contentKey: key ?? (redisTargetOf(config) ? DEVELOPMENT_CONTENT_KEY : randomBytes(32).toString('hex')),
    contentKeyDefault: keyDefault,
    keepContentDaysDefault: config.REVIEW_KEEP_CONTENT_DAYS_DEFAULT,
    maxPerClient: config.REVIEW_MAX_CHECKS_PER_CLIENT,
  };
}
export type ReviewConfig = ReturnType<typeof reviewConfigOf>;

/** Every variable the gateway service reads (documented in the README's configuration table). */
export const configSchema = z.object({
  ...commonConfigShape,
  ...clientSettingsConfigShape,
  GATEWAY_MANAGEMENT_PORT: env.port(9080),
  AUTH_URL: z.url().default('http://127.0.0.1:8081'),
  EMAIL_DETECTOR_URL: z.url().default('http://127.0.0.1:8082'),
  TEXT_DETECTOR_URL: z.url().default('http://127.0.0.1:8083'),
  GATEWAY_CLIENT_ID: z.string().min(1).optional(),
  GATEWAY_CLIENT_SECRET: z.string().min(1).optional(),
  AUTH_TIMEOUT_MS: env.positiveInt(2000),
  /** Proxies of ours in front of the gateway that append to X-Forwarded-For (an ingress: 1). */
  TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  DETECTOR_TIMEOUT_MS: env.positiveInt(10_000),
  /** How often each detector's `/livez` is probed; 0: never (a down detector costs each call its timeout). */
  DETECTOR_PROBE_INTERVAL_MS: z.coerce.number().int().nonnegative().default(500),
  /** Failed probes in a row after which a detector is down: its calls get 503 at once. */
  DETECTOR_DOWN_AFTER_PROBES: env.positiveInt(2),
  /** One call per detector and batch: up to 1,000 addresses, each of which may wait for DNS. */
  DETECTOR_BATCH_TIMEOUT_MS: env.positiveInt(60_000),
  ...redisConfigShape,
  REDIS_KEY_PREFIX: z.string().default('spam-check:gateway:'),
  REVOCATION_CHANNEL: z.string().min(1).default('spam-check:revocations'),
  ...amqpConfigShape,
  EMAIL_RPC_QUEUE: z.string().min(1).default(DETECTOR_RPC_QUEUES.email),
  TEXT_RPC_QUEUE: z.string().min(1).default(DETECTOR_RPC_QUEUES.text),
  TOKEN_CACHE_TTL_MS: z.coerce.number().int().nonnegative().optional(),
  TOKEN_CACHE_MAX_ENTRIES: env.positiveInt(10_000),
  RATE_LIMIT_REQUESTS: z.coerce.number().int().nonnegative().default(600),
  RATE_LIMIT_WINDOW_SECONDS: env.positiveInt(60),
  FAILED_TOKEN_LIMIT: z.coerce.number().int().nonnegative().default(20),
  FAILED_TOKEN_WINDOW_SECONDS: env.positiveInt(60),
  ...checkLimitsShape,
  FEEDBACK_RETENTION_SECONDS: feedbackConfigShape.FEEDBACK_RETENTION_SECONDS,
  ...reviewConfigShape,
  /** The console's OAuth client (password and refresh_token grants, scope spam:admin). */
  CONSOLE_CLIENT_ID: z.string().min(1).optional(),
  CONSOLE_CLIENT_SECRET: z.string().min(1).optional(),
  CONSOLE_SESSION_IDLE_SECONDS: env.positiveInt(1800),
  CONSOLE_SESSION_ABSOLUTE_SECONDS: env.positiveInt(8 * 3600),
  /** Unset: Secure cookies in production only (served over https there, through the ingress). */
  CONSOLE_SECURE_COOKIE: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => (value === undefined ? undefined : value === 'true')),
  ...webhookConfigShape,
});

export function loadServiceConfig(source: Env = process.env) {
  const config = loadConfig(configSchema, source);
  const redis = redisTargetOf(config);
  const embedded = {
    redis: redis === undefined,
    amqp: !config.AMQP_URL,
    credentials: !config.GATEWAY_CLIENT_ID || !config.GATEWAY_CLIENT_SECRET,
  };
  if (config.NODE_ENV === 'production') {
    const problems = [
      embedded.redis &&
        'REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES: required in production (no in-memory token cache without revocations)',
      embedded.amqp && 'AMQP_URL: required in production (step-by-step hybrid checks run over RabbitMQ)',
      embedded.credentials &&
        'GATEWAY_CLIENT_ID / GATEWAY_CLIENT_SECRET: required in production (no embedded default credentials)',
      ...secretProblems(config.NODE_ENV, {
        GATEWAY_CLIENT_SECRET: config.GATEWAY_CLIENT_SECRET,
        CONSOLE_CLIENT_SECRET: config.CONSOLE_CLIENT_SECRET,
      }),
      ...webhookConfigProblems(config.NODE_ENV, config),
    ].filter((problem): problem is string => typeof problem === 'string');
    if (problems.length > 0) throw new ConfigError(problems);
  }
  return {
    ...config,
    port: servicePort(source, 'GATEWAY_PORT', 8080),
    managementPort: config.GATEWAY_MANAGEMENT_PORT,
    embedded,
    redis,
    limits: checkLimitsOf(config),
    gatewayClient: {
      id: config.GATEWAY_CLIENT_ID ?? EMBEDDED_CLIENT_ID,
      secret: config.GATEWAY_CLIENT_SECRET ?? EMBEDDED_CLIENT_SECRET,
    },
    console: consoleConfigOf(config),
    webhooks: webhookConfigOf(config.NODE_ENV, config),
    review: reviewConfigOf(config),
    // Without Redis there is no revocation channel, so a cached token stays usable until its entry expires:
    // the short default bounds that window to one second.
    tokenCacheTtlMs: config.TOKEN_CACHE_TTL_MS ?? (redis ? 30_000 : 1000),
  };
}
export type ServiceConfig = ReturnType<typeof loadServiceConfig>;

/**
 * The console (`/console`): its OAuth client, or the demo admin client outside production; in production
 * without CONSOLE_CLIENT_ID / CONSOLE_CLIENT_SECRET the console is off (404), since there is no default.
 */
function consoleConfigOf(config: z.output<typeof configSchema>) {
  const production = config.NODE_ENV === 'production';
  const configured =
    config.CONSOLE_CLIENT_ID && config.CONSOLE_CLIENT_SECRET
      ? { id: config.CONSOLE_CLIENT_ID, secret: config.CONSOLE_CLIENT_SECRET }
      : undefined;
  return {
    client: configured ?? (production ? undefined : DEMO_CONSOLE_CLIENT),
    demoClient: !configured && !production,
    idleSeconds: config.CONSOLE_SESSION_IDLE_SECONDS,
    absoluteSeconds: config.CONSOLE_SESSION_ABSOLUTE_SECONDS,
    secureCookie: config.CONSOLE_SECURE_COOKIE ?? production,
    // Two token calls' time: a replica's refresh may wait for its call to auth and then the store.
    refreshClaimMs: 2 * config.AUTH_TIMEOUT_MS + 1000,
  };
}
export type ConsoleConfig = ReturnType<typeof consoleConfigOf>;
