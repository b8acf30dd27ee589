import type { RedisClient } from '@spam-check/service-kit';
import type { Logger } from '@spam-check/service-kit';
import { scanKeys } from '../scan-keys';

/** Set once the keys written before they had a client's hash tag are renamed (`tagClientKeys`). */
const TAGGED_MARKER = 'migrations:hash-tagged-keys';

const UNTAGGED = {
  checks: /^([^{].*?)(:check:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/,
  map: /^([^{].*?)(:entries|:order|:version)$/,
};

/**
 * The upgrade of keys written before a client's keys had its hash tag: `<prefix><client>:…` of check records
 * (`redisCheckMemory`) or of a client map (`redisClientMap`) is renamed `<prefix>{<client>}:…`, keeping its
 * expiry; a key whose new name exists already is left to expire. Answers how many were renamed.
 *
 * Run by the e-mail detector at every start, once per prefix (`tagClientKeysOnce`). Can be removed after
 * release 0.1.0: every key an earlier version wrote has then been renamed by a start of 0.1.0.
 */
async function tagClientKeys(redis: RedisClient, prefix: string, kind: 'checks' | 'map'): Promise<number> {
  let renamed = 0;
  const untagged = (key: string) => UNTAGGED[kind].test(key.slice(prefix.length));
  for await (const keys of scanKeys(redis, `${prefix}*`, untagged))
    for (const key of keys) {
      const [, client, rest] = UNTAGGED[kind].exec(key.slice(prefix.length)) ?? [];
      renamed += await redis.renamenx(key, `${prefix}{${client}}${rest}`);
    }
  return renamed;
}

/** The check records under `prefix` and the report maps under `<prefix>reports:`, unless the marker says done. */
export async function tagClientKeysOnce(redis: RedisClient, prefix: string, logger: Logger): Promise<void> {
  if ((await redis.get(`${prefix}${TAGGED_MARKER}`)) !== null) return;
  const renamed =
    (await tagClientKeys(redis, prefix, 'checks')) + (await tagClientKeys(redis, `${prefix}reports:`, 'map'));
  await redis.set(`${prefix}${TAGGED_MARKER}`, new Date().toISOString());
  logger.info({ renamed }, 'feedback keys renamed under their client hash tags');
}
