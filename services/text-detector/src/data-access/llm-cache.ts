import type { RedisClient } from '@spam-check/service-kit';
import type { LlmAnswer } from '../domain/llm';

/** LLM answers by content hash: RedisClient with a TTL, or a bounded in-memory map in embedded mode. */
export interface LlmCache {
  get(key: string): Promise<LlmAnswer | undefined>;
  set(key: string, answer: LlmAnswer): Promise<void>;
}

export function createRedisLlmCache(redis: RedisClient, prefix: string, ttlSeconds: number): LlmCache {
  return {
    async get(key) {
      const raw = await redis.get(prefix + key);
      return raw === null ? undefined : (JSON.parse(raw) as LlmAnswer);
    },
    async set(key, answer) {
      await redis.set(prefix + key, JSON.stringify(answer), 'EX', ttlSeconds);
    },
  };
}

export function createMemoryLlmCache(
  maxEntries: number,
  ttlSeconds: number,
  now = () => Date.now(),
): LlmCache {
  const entries = new Map<string, { answer: LlmAnswer; expires: number }>();
  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry || entry.expires <= now()) {
        entries.delete(key);
        return Promise.resolve(undefined);
      }
      return Promise.resolve(entry.answer);
    },
    set(key, answer) {
      entries.delete(key);
      entries.set(key, { answer, expires: now() + ttlSeconds * 1000 });
      // Maps iterate in insertion order: the first key is the oldest.
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
      return Promise.resolve();
    },
  };
}
