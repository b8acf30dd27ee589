import type { FeedbackLabel } from '@spam-check/contracts';
import {
  AppError,
  memoryCampaignMemory,
  redisCampaignMemory,
  type CampaignMemory,
  memoryCheckMemory,
  memoryClientMap,
  redisCheckMemory,
  redisClientMap,
  type CheckMemory,
  type ClientMap,
} from '@spam-check/service-kit';
import type { Redis } from 'ioredis';
import { campaignReporters, campaignSignatures } from '../domain/campaigns';
import { learnableKey, reportKey, type EmailFeedback } from '../domain/reports';

/** The campaign memory and who shares in it (DESIGN.md §7.1). */
export interface EmailCampaigns {
  memory: CampaignMemory;
  minClients: number;
  /** Whether the client's reports count towards the campaign memory (its `campaigns.share`). */
  shares(client: string): Promise<boolean>;
}

export interface CampaignOptions {
  minClients: number;
  key: string;
  shares: EmailCampaigns['shares'];
}

/** A campaign signature is forgotten this long after its last spam report. */
const CAMPAIGN_TTL_SECONDS = 30 * 24 * 3600;

/** A store failure is a down dependency: 503, never a verdict without the client's reports. */
function unavailable(error: unknown): never {
  throw new AppError('SERVICE_UNAVAILABLE', { cause: error, internal: 'feedback store unavailable' });
}

function createEmailFeedback(
  checks: CheckMemory,
  reports: ClientMap,
  campaigns: EmailCampaigns,
): EmailFeedback {
  const store = async (client: string, key: string | null, label: FeedbackLabel) => {
    if (key === null) return;
    const shared = async () => {
      if (await campaigns.shares(client))
        await campaigns.memory.report(client, campaignSignatures(key), label);
    };
    await Promise.all([reports.update(client, [[key, label]]), shared()]).catch(unavailable);
  };
  return {
    async campaignOf(address) {
      const counts = await campaigns.memory
        .reporters(campaignSignatures(reportKey(address)))
        .catch(unavailable);
      return campaignReporters(counts, campaigns.minClients);
    },
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

export function memoryEmailFeedback(
  retentionSeconds: number,
  maxReports: number,
  campaigns: CampaignOptions,
): EmailFeedback {
  const memory = memoryCampaignMemory({ key: campaigns.key, ttlSeconds: CAMPAIGN_TTL_SECONDS });
  return createEmailFeedback(memoryCheckMemory(retentionSeconds), memoryClientMap(maxReports), {
    ...campaigns,
    memory,
  });
}

export function redisEmailFeedback(
  redis: Redis,
  prefix: string,
  retentionSeconds: number,
  maxReports: number,
  campaigns: CampaignOptions,
): EmailFeedback {
  const memory = redisCampaignMemory(redis, prefix, { key: campaigns.key, ttlSeconds: CAMPAIGN_TTL_SECONDS });
  return createEmailFeedback(
    redisCheckMemory(redis, prefix, retentionSeconds),
    redisClientMap(redis, `${prefix}reports:`, maxReports),
    { ...campaigns, memory },
  );
}
