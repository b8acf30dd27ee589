import {
  ConfigError,
  commonConfigShape,
  env,
  loadConfig,
  redisConfigShape,
  redisTargetOf,
  secretProblems,
  servicePort,
  type Env,
} from '@spam-check/service-kit';
import { z } from 'zod';

/** Values that are only acceptable outside production (docs/design.md, Deployment). */
export const DEFAULT_GATEWAY_CLIENT = { id: 'gateway', secret: 'gateway-secret' } as const;
export const DEMO_CLIENT = { id: 'demo-client', secret: 'demo-secret' } as const;
export const DEMO_USER = { username: 'demo', password: 'demo-password' } as const;
/** The demo administrator (docs/design.md, Administration), both with `spam:admin`. */
export const DEMO_ADMIN_CLIENT = { id: 'demo-admin', secret: 'demo-admin-secret' } as const;
export const DEMO_ADMIN_USER = { username: 'admin', password: 'admin-password' } as const;
export const DEFAULT_SECRETS: readonly string[] = [
  DEFAULT_GATEWAY_CLIENT.secret,
  DEMO_CLIENT.secret,
  DEMO_USER.password,
  DEMO_ADMIN_CLIENT.secret,
  DEMO_ADMIN_USER.password,
];

/** Every variable the auth service reads (documented in the README's configuration table). */
export const configSchema = z.object({
  ...commonConfigShape,
  ...redisConfigShape,
  AUTH_REDIS_PREFIX: z.string().default('auth:'),
  AUTH_REDIS_TIMEOUT_MS: env.positiveInt(500),
  AUTH_REVOCATION_CHANNEL: z.string().min(1).default('spam-check:revocations'),
  AUTH_ACCESS_TOKEN_LIFETIME_SECONDS: env.positiveInt(3600),
  AUTH_REFRESH_TOKEN_LIFETIME_SECONDS: env.positiveInt(14 * 24 * 3600),
  AUTH_SCRYPT_COST: z.coerce
    .number()
    .int()
    .min(2)
    .refine((n) => (n & (n - 1)) === 0, 'must be a power of two')
    .default(16384),
  AUTH_BOOTSTRAP_FILE: z.string().min(1).optional(),
  /**
   * How many proxies in front of auth append to X-Forwarded-For (the gateway: 1). The client address is the
   * entry that many hops back; 0 uses the socket address and ignores the header.
   */
  AUTH_TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(1),
  AUTH_LOGIN_MAX_FAILURES_PER_USER: env.positiveInt(5),
  AUTH_LOGIN_MAX_FAILURES_PER_IP: env.positiveInt(50),
  AUTH_CLIENT_MAX_FAILURES: env.positiveInt(20),
  AUTH_LOGIN_FAILURE_WINDOW_SECONDS: env.positiveInt(900),
  AUTH_CLIENT_AUTH_CACHE_SECONDS: z.coerce.number().int().min(0).default(30),
  GATEWAY_CLIENT_ID: z.string().min(1).optional(),
  GATEWAY_CLIENT_SECRET: z.string().min(1).optional(),
});

export function loadServiceConfig(source: Env = process.env) {
  const config = loadConfig(configSchema, source);
  const redis = redisTargetOf(config);
  const problems: string[] = [];
  if (config.NODE_ENV === 'production' && !redis)
    problems.push(
      'REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES: required in production (the in-memory store is for development)',
    );
  // The scripts of a token family reach keys they build from the prefix, so on a cluster every auth key
  // must hash to one slot: the prefix's hash tag does that, and a prefix without one is taken as one whole
  // tag (`auth:` becomes `{auth:}`), so that the Secret's REDIS_CLUSTER_NODES alone moves auth to a cluster.
  const prefix =
    redis?.kind === 'cluster' && !/\{[^}]+\}/.test(config.AUTH_REDIS_PREFIX)
      ? `{${config.AUTH_REDIS_PREFIX}}`
      : config.AUTH_REDIS_PREFIX;
  problems.push(...secretProblems(config.NODE_ENV, { GATEWAY_CLIENT_SECRET: config.GATEWAY_CLIENT_SECRET }));
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    ...config,
    AUTH_REDIS_PREFIX: prefix,
    port: servicePort(source, 'AUTH_PORT', 8081),
    redis,
    embedded: !redis,
  };
}
export type ServiceConfig = ReturnType<typeof loadServiceConfig>;
