import type { Redis } from 'ioredis';

/** Every key matching `pattern` that `keep` accepts, in batches (SCAN: never blocks Redis on a big keyspace). */
export async function* scanKeys(redis: Redis, pattern: string, keep: (key: string) => boolean) {
  for await (const batch of redis.scanStream({ match: pattern, count: 1000 }) as AsyncIterable<string[]>) {
    const kept = batch.filter(keep);
    if (kept.length > 0) yield kept;
  }
}
