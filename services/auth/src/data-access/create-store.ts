import type { ServiceConfig } from '../config';
import { MemoryStore } from './memory-store';
import { RedisStore } from './redis-store';
import type { AuthStore } from '../domain/store';

/** Redis when REDIS_URL is set, else the embedded in-memory store. Connects before returning. */
export async function createStore(config: ServiceConfig): Promise<AuthStore> {
  if (!config.REDIS_URL) return new MemoryStore();
  const store = new RedisStore({
    url: config.REDIS_URL,
    prefix: config.AUTH_REDIS_PREFIX,
    channel: config.AUTH_REVOCATION_CHANNEL,
    timeoutMs: config.AUTH_REDIS_TIMEOUT_MS,
  });
  try {
    await store.connect();
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}
