import type { FeedbackLabel } from '@spam-check/contracts';
import {
  AppError,
  keyedHash,
  memoryCheckMemory,
  memoryClientMap,
  redisCheckMemory,
  redisClientMap,
  type CheckMemory,
  type ClientMap,
} from '@spam-check/service-kit';
import type { Redis } from 'ioredis';
import { learnableKey, reportKey, type EmailFeedback } from '../domain/reports';

/** A store failure is a down dependency: 503, never a verdict without the client's reports. */
function unavailable(error: unknown): never {
  throw new AppError('SERVICE_UNAVAILABLE', { cause: error, internal: 'feedback store unavailable' });
}

export interface EmailFeedbackOptions {
  /** PRIVACY_HASH_KEY: addresses are stored only as keyedHash(hashKey, mailbox) (DESIGN.md §7.5). */
  hashKey: string;
  retentionSeconds: number;
  maxReports: number;
  reportRetentionSeconds: number;
}

/**
 * The stores: check records (per client, by check id: the hash of the mailbox a report would be about, or ''
 * when the check teaches nothing) and reports (per client, a capped map from the mailbox's hash to its label).
 */
export interface EmailFeedbackStores {
  checks: CheckMemory;
  reports: ClientMap;
}

export function createEmailFeedback(stores: EmailFeedbackStores, hashKey: string): EmailFeedback {
  const { checks, reports } = stores;
  const hashed = (mailbox: string | null) => (mailbox === null ? null : keyedHash(hashKey, mailbox));
  const store = async (client: string, key: string | null, label: FeedbackLabel) => {
    if (key !== null) await reports.update(client, [[key, label]]).catch(unavailable);
  };
  return {
    reportsOf: (client) =>
      client === undefined
        ? undefined
        : async (address) =>
            (await reports.get(client, keyedHash(hashKey, reportKey(address))).catch(unavailable)) as
              FeedbackLabel | undefined,
    async remember(client, email, checkId) {
      if (client === undefined) return;
      await checks.remember(client, checkId, hashed(learnableKey(email)) ?? '').catch(unavailable);
    },
    async reportCheck(client, checkId, label) {
      const key = await checks.recall(client, checkId).catch(unavailable);
      if (key === undefined) return false;
      await store(client, key === '' ? null : key, label);
      return true;
    },
    reportAddress: (client, email, label) => store(client, hashed(learnableKey(email)), label),
    async eraseAddress(email) {
      const key = hashed(learnableKey(email));
      if (key === null) return { email_check_records: 0, email_reports: 0 };
      const [records, erased] = await Promise.all([checks.eraseValue(key), reports.eraseKey(key)]);
      return { email_check_records: records, email_reports: erased };
    },
    async eraseClient(client) {
      const [records, erased] = await Promise.all([checks.eraseClient(client), reports.eraseClient(client)]);
      return { email_check_records: records, email_reports: erased };
    },
  };
}

export function memoryEmailFeedbackStores(options: EmailFeedbackOptions): EmailFeedbackStores {
  return {
    checks: memoryCheckMemory(options.retentionSeconds),
    reports: memoryClientMap(options.maxReports, options.reportRetentionSeconds),
  };
}

export function redisEmailFeedbackStores(
  redis: Redis,
  prefix: string,
  options: EmailFeedbackOptions,
): EmailFeedbackStores {
  return {
    checks: redisCheckMemory(redis, prefix, options.retentionSeconds),
    reports: redisClientMap(redis, `${prefix}reports:`, options.maxReports, options.reportRetentionSeconds),
  };
}
