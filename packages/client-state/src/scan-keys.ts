import { Cluster } from 'ioredis';
import type { RedisClient } from '@spam-check/service-kit';

/**
 * Every key matching `pattern` that `keep` accepts, in batches (SCAN: never blocks Redis on a big keyspace).
 * On a cluster each master holds its own slots and answers SCAN for those only, so every master is scanned.
 */
export async function* scanKeys(redis: RedisClient, pattern: string, keep: (key: string) => boolean) {
  const nodes = redis instanceof Cluster ? redis.nodes('master') : [redis];
  for (const node of nodes)
    for await (const batch of node.scanStream({ match: pattern, count: 1000 }) as AsyncIterable<string[]>) {
      const kept = batch.filter(keep);
      if (kept.length > 0) yield kept;
    }
}
