import { connectRedis, type RedisLogger } from '@spam-check/service-kit';
import type { ServiceConfig } from '../config';
import type { AuthStore } from '../domain/store';
import { MemoryStore } from './memory-store';
import { RedisStore } from './redis-store';

/** Redis when REDIS_URL is set, else the embedded in-memory store. Waits for the first connection. */
export async function createStore(config: ServiceConfig, logger: RedisLogger): Promise<AuthStore> {
  if (!config.REDIS_URL) return new MemoryStore();
  const timeoutMs = config.AUTH_REDIS_TIMEOUT_MS;
  return new RedisStore({
    connection: await connectRedis({
      url: config.REDIS_URL,
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
