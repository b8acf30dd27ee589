import type { ClientSettings } from '@spam-check/contracts';
import { env } from '@spam-check/service-kit';

/**
 * Campaigns shared between clients (docs/design.md, Campaigns): the operator defaults of the `campaigns`
 * setting, and how many distinct sharing clients must have reported a signature before it counts for anyone,
 * and how many signatures one client's contribution keeps at most.
 */
export const campaignConfigShape = {
  CAMPAIGN_SHARE_DEFAULT: env.flag(false),
  CAMPAIGN_PROTECT_DEFAULT: env.flag(false),
  CAMPAIGN_MIN_CLIENTS: env.positiveInt(2),
  CAMPAIGN_MAX_SIGNATURES_PER_CLIENT: env.positiveInt(20_000),
};

export interface CampaignPolicy {
  /** The client's spam reports count towards the shared campaign memory. */
  share: boolean;
  /** The client's checks are judged against the shared campaign memory. */
  protect: boolean;
}

/** A client's campaign policy: its own setting, else the operator's default. */
export function campaignPolicy(
  settings: ClientSettings,
  config: { CAMPAIGN_SHARE_DEFAULT: boolean; CAMPAIGN_PROTECT_DEFAULT: boolean },
): CampaignPolicy {
  return {
    share: settings.campaigns?.share ?? config.CAMPAIGN_SHARE_DEFAULT,
    protect: settings.campaigns?.protect ?? config.CAMPAIGN_PROTECT_DEFAULT,
  };
}
