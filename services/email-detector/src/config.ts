import { campaignConfigShape } from '@spam-check/client-settings';
import { isIP } from 'node:net';
import { DETECTOR_RPC_QUEUES } from '@spam-check/contracts';
import { detectorConfigOf, detectorConfigShape } from '@spam-check/detector-kit';
import { env, loadConfig, redisTargetOf, type Env } from '@spam-check/service-kit';
import { formConfigShape } from '@spam-check/form-signals';
import { z } from 'zod';

/** `ip`, `ip:port` or `[ipv6]:port`, as `dns.setServers` takes them. */
function isResolverAddress(value: string): boolean {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(value);
  if (bracketed) return isIP(bracketed[1] ?? '') === 6 && Number(bracketed[2] ?? 53) <= 65535;
  if (isIP(value) !== 0) return true;
  const withPort = /^([\d.]+):(\d{1,5})$/.exec(value);
  return withPort !== null && isIP(withPort[1] ?? '') === 4 && Number(withPort[2]) <= 65535;
}

/** Every variable the e-mail detector reads (documented in the README's configuration table). */
export const configSchema = z
  .object({
    ...detectorConfigShape,
    ...formConfigShape,
    EMAIL_FEEDBACK_PREFIX: z.string().default('spam-check:email-feedback:'),
    EMAIL_RPC_QUEUE: z.string().min(1).default(DETECTOR_RPC_QUEUES.email),
    EMAIL_DNS_CHECK: env.flag(true),
    EMAIL_DNS_SERVERS: env
      .list()
      .refine(
        (servers) => servers.every(isResolverAddress),
        'must be a comma list of ip, ip:port or [ipv6]:port',
      ),
    EMAIL_DNS_TIMEOUT_MS: env.positiveInt(1500),
    EMAIL_DNS_CACHE_TTL_S: z.coerce.number().int().nonnegative().default(300),
    EMAIL_DNS_CACHE_SIZE: z.coerce.number().int().nonnegative().default(10_000),
    EMAIL_ALLOW_LIST: env.list(),
    EMAIL_DENY_LIST: env.list(),
    /**
     * Checks of one client that run at once; more wait in the client's own queue, so one client's batches
     * cannot hold up another's checks.
     */
    EMAIL_CLIENT_CHECKS_IN_FLIGHT: env.positiveInt(64),
    ...campaignConfigShape,
  })
  .refine((config) => config.NODE_ENV !== 'production' || config.AMQP_URL !== undefined, {
    path: ['AMQP_URL'],
    message: 'is required in production (without it the RPC queue is not consumed)',
  })
  .refine((config) => config.NODE_ENV !== 'production' || redisTargetOf(config) !== undefined, {
    path: ['REDIS_URL'],
    message:
      'is required in production, or REDIS_SENTINELS or REDIS_CLUSTER_NODES (without Redis the clients’ reports live in one process only)',
  });

export function loadServiceConfig(source: Env = process.env) {
  const config = loadConfig(configSchema, source);
  return detectorConfigOf(config, source, { variable: 'EMAIL_DETECTOR_PORT', fallback: 8082 });
}
export type ServiceConfig = ReturnType<typeof loadServiceConfig>;
