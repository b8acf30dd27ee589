import { env } from '@spam-check/service-kit';
import { z } from 'zod';

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
  /** Attempts in flight per gateway, and per client within them. */
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
