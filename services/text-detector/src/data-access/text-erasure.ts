import type { CampaignMemory, CheckMemory, ClientMap } from '@spam-check/client-state';
import type { Eraser } from '@spam-check/detector-kit';

/**
 * Erasure in the text detector (docs/design.md, Privacy and erasure): by client, its check records, its
 * learnt state (reports, their band index and adjustment weights), its reported texts and its contribution to
 * the campaign memory. It keeps no address (stored texts have them replaced by a placeholder), so an address
 * erases nothing here.
 */
export function textEraser(stores: {
  checks: CheckMemory;
  reports: ClientMap;
  bands: ClientMap;
  weights: ClientMap;
  texts: ClientMap;
  campaigns: CampaignMemory;
}): Eraser {
  return {
    async client(clientId) {
      const [records, reports, bands, weights, texts, campaigns] = await Promise.all([
        stores.checks.eraseClient(clientId),
        stores.reports.eraseClient(clientId),
        stores.bands.eraseClient(clientId),
        stores.weights.eraseClient(clientId),
        stores.texts.eraseClient(clientId),
        stores.campaigns.eraseClient(clientId),
      ]);
      return {
        text_check_records: records,
        text_learnt_state: reports + bands + weights,
        text_reported_texts: texts,
        text_campaign_reports: campaigns,
      };
    },
  };
}
