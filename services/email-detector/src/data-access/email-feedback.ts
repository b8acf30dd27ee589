import {
  memoryCampaignMemory,
  memoryCheckMemory,
  memoryClientMap,
  redisCampaignMemory,
  redisCheckMemory,
  redisClientMap,
  type CampaignMemory,
  type CheckMemory,
  type ClientMap,
} from '@spam-check/client-state';
import type { RedisClient } from '@spam-check/service-kit';

export interface EmailFeedbackOptions {
  /** PRIVACY_HASH_KEY: addresses are stored only as keyedHash(hashKey, mailbox) (DESIGN.md §7.5). */
  hashKey: string;
  retentionSeconds: number;
  maxReports: number;
  /** CAMPAIGN_MAX_SIGNATURES_PER_CLIENT: the signatures one client's campaign contribution keeps at most. */
  maxCampaignSignatures: number;
  /** How long reports, and campaign signatures after their last spam report, are kept. */
  reportRetentionSeconds: number;
}

/**
 * The stores, in Redis or in memory: check records (per client, by check id), reports (per client, a capped
 * map from the mailbox's hash to its label) and the deployment's campaign memory. They keep and read maps
 * only: what a check keeps, a report learns and an erasure removes is decided in
 * ../domain/learn-from-report.ts.
 */
export interface EmailFeedbackStores {
  checks: CheckMemory;
  reports: ClientMap;
  campaigns: CampaignMemory;
}

const campaignMemoryOptions = (options: EmailFeedbackOptions) => ({
  key: options.hashKey,
  ttlSeconds: options.reportRetentionSeconds,
  maxPerClient: options.maxCampaignSignatures,
});

export function memoryEmailFeedbackStores(options: EmailFeedbackOptions): EmailFeedbackStores {
  return {
    checks: memoryCheckMemory(options.retentionSeconds),
    reports: memoryClientMap(options.maxReports, options.reportRetentionSeconds),
    campaigns: memoryCampaignMemory(campaignMemoryOptions(options)),
  };
}

export function redisEmailFeedbackStores(
  redis: RedisClient,
  prefix: string,
  options: EmailFeedbackOptions,
): EmailFeedbackStores {
  return {
    checks: redisCheckMemory(redis, prefix, options.retentionSeconds),
    reports: redisClientMap(redis, `${prefix}reports:`, options.maxReports, options.reportRetentionSeconds),
    campaigns: redisCampaignMemory(redis, prefix, campaignMemoryOptions(options)),
  };
}
