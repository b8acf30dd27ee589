import type { FeedbackLabel } from '@spam-check/contracts';
import {
  AppError,
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

function createEmailFeedback(checks: CheckMemory, reports: ClientMap): EmailFeedback {
  const store = async (client: string, key: string | null, label: FeedbackLabel) => {
    if (key !== null) await reports.update(client, [[key, label]]).catch(unavailable);
  };
  return {
    reportsOf: (client) =>
      client === undefined
        ? undefined
        : async (address) =>
            (await reports.get(client, reportKey(address)).catch(unavailable)) as FeedbackLabel | undefined,
    async remember(client, email, checkId) {
      if (client === undefined) return;
      await checks.remember(client, checkId, learnableKey(email) ?? '').catch(unavailable);
    },
    async reportCheck(client, checkId, label) {
      const key = await checks.recall(client, checkId).catch(unavailable);
      if (key === undefined) return false;
      await store(client, key === '' ? null : key, label);
      return true;
    },
    reportAddress: (client, email, label) => store(client, learnableKey(email), label),
    async reports(client) {
      const entries = await reports.all(client);
      return entries.map(([email, label]) => ({ email, label: label as FeedbackLabel }));
    },
    clients: () => reports.clients(),
  };
}

export function memoryEmailFeedback(retentionSeconds: number, maxReports: number): EmailFeedback {
  return createEmailFeedback(memoryCheckMemory(retentionSeconds), memoryClientMap(maxReports));
}

export function redisEmailFeedback(
  redis: Redis,
  prefix: string,
  retentionSeconds: number,
  maxReports: number,
): EmailFeedback {
  return createEmailFeedback(
    redisCheckMemory(redis, prefix, retentionSeconds),
    redisClientMap(redis, `${prefix}reports:`, maxReports),
  );
}
