/** What these helpers need of an ioredis client (so test-support does not depend on ioredis itself). */
export interface ScanningClient {
  scan(
    cursor: string,
    match: 'MATCH',
    pattern: string,
    count: 'COUNT',
    n: number,
  ): Promise<[string, string[]]>;
  unlink(...keys: string[]): Promise<number>;
}

/**
 * Every key under a prefix, by SCAN: never `KEYS`, which blocks a Redis that other test runs and sessions share
 * while it walks the whole keyspace (past the services' command timeouts, so their checks answer 503).
 */
export async function keysUnder(redis: ScanningClient, prefix: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    found.push(...keys);
    cursor = next;
  } while (cursor !== '0');
  return [...new Set(found)];
}

/** Removes every key under a prefix (SCAN, then UNLINK in the background of Redis). */
export async function removeKeysUnder(redis: ScanningClient, prefix: string): Promise<void> {
  const keys = await keysUnder(redis, prefix);
  for (let start = 0; start < keys.length; start += 1000)
    await redis.unlink(...keys.slice(start, start + 1000));
}
