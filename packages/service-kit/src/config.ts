import {
  BATCH_LIMITS,
  DEFAULT_CHECK_LIMITS,
  DEFAULT_LANGUAGE,
  SUPPORTED_LANGUAGES,
  isSupportedLanguage,
  type CheckLimits,
  type Language,
} from '@spam-check/contracts';
import { z } from 'zod';
import { commaList } from './comma-list';
import { redisConfigProblems, type RedisConfig } from './redis-target';
import { DEFAULT_SERVER_TIMEOUTS } from './serve';

export type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment once with zod; every bad variable is reported at once. */
export function loadConfig<S extends z.ZodType>(schema: S, env: Env = process.env): z.output<S> {
  const result = schema.safeParse(env);
  if (!result.success)
    throw new ConfigError(
      result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`),
    );
  const config = result.data as { NODE_ENV?: string; REDIS_URL?: string; AMQP_URL?: readonly string[] };
  const problems = [
    ...redisConfigProblems(result.data as RedisConfig),
    ...urlSecretProblems(config.NODE_ENV ?? '', { REDIS_URL: config.REDIS_URL, AMQP_URL: config.AMQP_URL }),
  ];
  if (problems.length > 0) throw new ConfigError(problems);
  return result.data;
}

/** Building blocks for the services' config schemas, so every service spells a variable the same way. */
export const env = {
  port: (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback),
  positiveInt: (fallback: number) => z.coerce.number().int().positive().default(fallback),
  flag: (fallback: boolean) =>
    z
      .enum(['true', 'false', '1', '0', 'on', 'off', 'yes', 'no'])
      .default(fallback ? 'true' : 'false')
      .transform((value) => ['true', '1', 'on', 'yes'].includes(value)),
  list: (fallback = '') => z.string().default(fallback).transform(commaList),
  url: () => z.url().optional(),
  languages: () =>
    z
      .string()
      .default(SUPPORTED_LANGUAGES.join(','))
      .transform((value, ctx) => {
        const codes = value
          .split(',')
          .map((item) => item.trim().toLowerCase())
          .filter(Boolean);
        const unknown = codes.filter((code) => !isSupportedLanguage(code));
        if (unknown.length > 0 || codes.length === 0) {
          ctx.addIssue({
            code: 'custom',
            message: `must list languages from ${SUPPORTED_LANGUAGES.join(', ')}; got ${unknown.join(', ') || 'none'}`,
          });
          return z.NEVER;
        }
        return codes as Language[];
      }),
  logLevel: () => z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  nodeEnv: () => z.enum(['development', 'production', 'test']).default('development'),
};

/** Variables every service reads (logging, languages, connection deadlines, shutdown). */
/**
 * Where the per-client settings live in Redis (`@spam-check/client-settings`): the gateway and both detectors
 * of one deployment must agree, and two deployments on one Redis must differ in both (a Redis database
 * number separates keys, but pub/sub channels are shared by all databases).
 */
export const clientSettingsConfigShape = {
  CLIENT_SETTINGS_PREFIX: z.string().min(1).default('spam-check:client-settings:'),
  CLIENT_SETTINGS_CHANNEL: z.string().min(1).default('spam-check:client-settings'),
};

export const commonConfigShape = {
  NODE_ENV: env.nodeEnv(),
  LOG_LEVEL: env.logLevel(),
  LANGUAGES: env.languages(),
  DEFAULT_LANGUAGE: z.enum(SUPPORTED_LANGUAGES).default(DEFAULT_LANGUAGE),
  SHUTDOWN_TIMEOUT_MS: env.positiveInt(10_000),
  HEADERS_TIMEOUT_MS: env.positiveInt(DEFAULT_SERVER_TIMEOUTS.headersMs),
  REQUEST_TIMEOUT_MS: env.positiveInt(DEFAULT_SERVER_TIMEOUTS.requestMs),
  KEEP_ALIVE_TIMEOUT_MS: env.positiveInt(DEFAULT_SERVER_TIMEOUTS.keepAliveMs),
  HOST: z.string().default('0.0.0.0'),
  MAX_BODY_BYTES: env.positiveInt(DEFAULT_CHECK_LIMITS.bodyBytes),
};

/**
 * The field limits of check requests (docs/design.md, Check requests), read by every service that validates a
 * check body: the gateway (hybrid checks) and both detectors (the mail and text checks, whose bodies the
 * gateway forwards unparsed). One shape, so the same variables mean the same limits everywhere.
 */
export const checkLimitsShape = {
  MAX_EMAIL_LENGTH: env.positiveInt(DEFAULT_CHECK_LIMITS.email),
  MAX_TITLE_LENGTH: env.positiveInt(DEFAULT_CHECK_LIMITS.title),
  MAX_SUB_TITLE_LENGTH: env.positiveInt(DEFAULT_CHECK_LIMITS.subTitle),
  MAX_BODY_LENGTH: env.positiveInt(DEFAULT_CHECK_LIMITS.body),
  /**
   * Body limit of the batch checks (docs/design.md, Batch checks), at the gateway and the detectors' batch
   * endpoints.
   */
  MAX_BATCH_BODY_BYTES: env.positiveInt(BATCH_LIMITS.bodyBytes),
};

export type CheckLimitsConfig = { MAX_BODY_BYTES: number } & {
  [K in keyof typeof checkLimitsShape]: number;
};

export function checkLimitsOf(config: CheckLimitsConfig): CheckLimits {
  return {
    bodyBytes: config.MAX_BODY_BYTES,
    email: config.MAX_EMAIL_LENGTH,
    title: config.MAX_TITLE_LENGTH,
    subTitle: config.MAX_SUB_TITLE_LENGTH,
    body: config.MAX_BODY_LENGTH,
  };
}

/** `<SERVICE>_PORT`, else `PORT` (a service run alone), else the default. */
export function servicePort(source: Env, variable: string, fallback: number): number {
  const raw = source[variable] ?? source.PORT;
  return env.port(fallback).parse(raw);
}

/**
 * Secrets published in this repository (README, docs, `deploy/` and `k8s/` examples, the embedded development
 * defaults), including ones since removed: git history keeps them readable. `test/integration/deploy-files/secrets.test.ts`
 * fails when an example or doc shows a secret this list and the length rule let through.
 */
const PUBLISHED_SECRETS: ReadonlySet<string> = new Set([
  'gateway-secret',
  'demo-secret',
  'demo-password',
  'demo-admin-secret',
  'admin-password',
  'compose-demo-secret',
  'compose-demo-password',
  'dev-demo-secret',
  'dev-demo-password',
  'local-gateway-client-secret',
  'local-redis-password',
  'local-rabbitmq-password',
  'dev-gateway-client-secret',
  'dev-redis-password',
  'dev-rabbitmq-password',
  'change-me-gateway',
  'change-me-redis',
  'change-me-rabbitmq',
  'replace-me-with-openssl-rand-hex-32',
  'replace-me-with-your-own-secret',
  'replace-me-with-your-own-password',
  'replace-me-with-another-secret',
  // PRIVACY_HASH_KEY's development default (privacy.ts).
  'development-privacy-hash-key-not-for-production',
]);

/**
 * The passwords inside the Redis and RabbitMQ URLs (each broker of an AMQP_URL list), in production: one
 * published in this repository (in any case) is refused, and so is RabbitMQ's default user `guest` (named, also
 * percent-encoded, or implied by a URL without user, which the AMQP client fills with guest:guest). Redis
 * without a password is the operator's choice (a network policy may be what protects it), so it is not refused.
 * Never shows the value.
 */
function urlSecretProblems(
  nodeEnv: string,
  urls: Record<string, string | readonly string[] | undefined>,
): string[] {
  if (nodeEnv !== 'production') return [];
  return Object.entries(urls).flatMap(([variable, value]) => {
    const list = value === undefined ? [] : [value].flat();
    return list.flatMap((item, i) =>
      urlSecretProblem(list.length > 1 ? `${variable} (broker ${i + 1} of ${list.length})` : variable, item),
    );
  });
}

function urlSecretProblem(name: string, value: string): string[] {
  const url = new URL(value);
  // Compared as the client sends them: `%67uest` is `guest` to RabbitMQ.
  const username = safeDecode(url.username);
  const password = safeDecode(url.password);
  if (PUBLISHED_SECRETS.has(password.trim().toLowerCase()))
    return [`${name}: its password is published in this repository; choose your own`];
  if (url.protocol.startsWith('amqp') && (username === '' || username === 'guest'))
    return [`${name}: RabbitMQ's default user guest (published password); use a user of your own`];
  return [];
}

/** A URL part decoded; one that is no valid percent-encoding is compared as written. */
function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

const MIN_SECRET_LENGTH = 16;

/**
 * The one rule for secrets that clients or services present (the gateway's introspection secret, the client
 * secrets and user passwords of auth's bootstrap file): in production, one published in this repository or
 * shorter than MIN_SECRET_LENGTH characters is refused. Returns a problem per refused secret, named by its
 * key and never showing the value; none outside production, where the demo secrets are the point.
 */
export function secretProblems(nodeEnv: string, secrets: Record<string, string | undefined>): string[] {
  if (nodeEnv !== 'production') return [];
  return Object.entries(secrets).flatMap(([name, secret]) => {
    if (secret === undefined) return [];
    if (PUBLISHED_SECRETS.has(secret.trim().toLowerCase()))
      return [`${name}: is published in this repository (an example or demo value); choose your own`];
    if (secret.length < MIN_SECRET_LENGTH)
      return [
        `${name}: shorter than ${MIN_SECRET_LENGTH} characters; use a random one (openssl rand -hex 24)`,
      ];
    return [];
  });
}
