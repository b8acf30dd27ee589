import type { RedisClient } from '@spam-check/service-kit';
import type { Logger } from '@spam-check/service-kit';
import type { CheckMemory } from '../check-memory';
import type { ClientMap } from '../client-map';
import { keyedHash } from '../keyed-hash';

/** Set once the addresses stored before they were hashed are migrated. */
const MIGRATED_MARKER = 'migrations:hashed-addresses';

/** The e-mail detector's check records and reports. */
interface HashedStores {
  checks: CheckMemory;
  reports: ClientMap;
}

/** A stored mailbox in clear (`local@ascii-domain`); a keyed hash is 64 hex digits, never with an `@`. */
const inClear = (value: string) => value.includes('@');

/**
 * The upgrade of data stored before addresses were hashed (DESIGN.md §7.5): each check record and each report
 * that holds a mailbox in clear gets its keyed hash instead (a check record with its domain's, `checkRecordOf`),
 * keeping its label, and the check record its expiry. A migrated report counts as written now for its retention. Idempotent: what is hashed stays as it is,
 * so replicas starting together may both run it.
 *
 * Run by the e-mail detector at every start, once per prefix (a marker key). Can be removed after release
 * 0.1.0: every store an earlier version wrote has then been migrated by a start of 0.1.0.
 */
async function hashStoredAddresses(
  stores: HashedStores,
  hashKey: string,
  checkRecordOf: (hashKey: string, mailbox: string) => string,
): Promise<{ checkRecords: number; reports: number }> {
  const hash = (value: string) => (inClear(value) ? keyedHash(hashKey, value) : value);
  const checkRecords = await stores.checks.rewriteValues((value) =>
    inClear(value) ? checkRecordOf(hashKey, value) : value,
  );
  let reports = 0;
  for (const client of await stores.reports.clients()) {
    const clear = (await stores.reports.all(client)).filter(([key]) => inClear(key));
    if (clear.length === 0) continue;
    await stores.reports.update(
      client,
      clear.map(([key, label]) => [hash(key), label]),
      clear.map(([key]) => key),
    );
    reports += clear.length;
  }
  return { checkRecords, reports };
}

/** `hashStoredAddresses`, unless the marker under `prefix` says it already ran; sets the marker after it. */
export async function migrateStoredAddresses(
  redis: RedisClient,
  prefix: string,
  {
    stores,
    hashKey,
    checkRecordOf,
  }: { stores: HashedStores; hashKey: string; checkRecordOf: (hashKey: string, mailbox: string) => string },
  logger: Logger,
): Promise<void> {
  const marker = `${prefix}${MIGRATED_MARKER}`;
  if ((await redis.get(marker)) !== null) return;
  const migrated = await hashStoredAddresses(stores, hashKey, checkRecordOf);
  await redis.set(marker, new Date().toISOString());
  logger.info({ migrated }, 'stored addresses replaced by their keyed hashes');
}
