import { connectRedis, type RedisLogger } from '@spam-check/service-kit';
import type { ServiceConfig } from '../config';
import type { AuthStore } from '../domain/store';
import { MemoryStore } from './memory-store';
import { RedisStore } from './redis-store';

/** Redis when one is configured, else the embedded in-memory store. Waits for the first connection. */
export async function createStore(config: ServiceConfig, logger: RedisLogger): Promise<AuthStore> {
  if (!config.redis) return new MemoryStore();
  const timeoutMs = config.AUTH_REDIS_TIMEOUT_MS;
  return new RedisStore({
    connection: await connectRedis({
      target: config.redis,
      name: 'redis',
      logger,
      timeoutMs,
      connectTimeoutMs: timeoutMs,
    }),
    prefix: config.AUTH_REDIS_PREFIX,
    channel: config.AUTH_REVOCATION_CHANNEL,
    timeoutMs,
  });
}
