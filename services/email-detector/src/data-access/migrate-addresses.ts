import { keyedHash } from '@spam-check/service-kit';
import { checkRecordOf } from '../domain/learn-from-report';
import type { EmailFeedbackStores } from './email-feedback';

/** A stored mailbox in clear (`local@ascii-domain`); a keyed hash is 64 hex digits, never with an `@`. */
const inClear = (value: string) => value.includes('@');

/**
 * The upgrade of data stored before addresses were hashed (DESIGN.md §7.5): each check record and each report
 * that holds a mailbox in clear gets its keyed hash instead (a check record with its domain's, `checkRecordOf`),
 * keeping its label, and the check record its expiry. A migrated report counts as written now for its retention. Idempotent: what is hashed stays as it is,
 * so replicas starting together may both run it.
 */
export async function migrateStoredAddresses(
  stores: EmailFeedbackStores,
  hashKey: string,
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
