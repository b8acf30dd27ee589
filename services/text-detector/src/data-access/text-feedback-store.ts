import type { FeedbackLabel } from '@spam-check/contracts';
import type { CampaignMemory, CheckMemory, ClientMap } from '@spam-check/client-state';
import type { FeedbackMaps } from '../domain/feedback-maps';

/**
 * The text detector's feedback storage: the maps of ../domain/feedback-maps.ts, kept in Redis or in memory
 * (`compose.ts`), and the reported texts read back for `feedback export`. It keeps and reads maps only: what
 * a report learns and what a check reads is decided in ../domain/learn-from-report.ts and
 * ../domain/client-view.ts.
 */
export interface TextFeedbackStore extends FeedbackMaps {
  /** The reported texts of a client (canonical form), oldest first. */
  reportedTexts(
    client: string,
  ): Promise<{ title: string; body: string; language: string | null; label: FeedbackLabel }[]>;
  clients(): Promise<string[]>;
}

export interface TextFeedbackStoreOptions {
  checks: CheckMemory;
  reports: ClientMap;
  bands: ClientMap;
  weights: ClientMap;
  texts: ClientMap;
  campaigns?: CampaignMemory | undefined;
}

export function createTextFeedbackStore(options: TextFeedbackStoreOptions): TextFeedbackStore {
  const { texts } = options;
  return {
    ...options,
    async reportedTexts(client) {
      return (await texts.all(client)).map(
        ([, value]) => JSON.parse(value) as Awaited<ReturnType<TextFeedbackStore['reportedTexts']>>[number],
      );
    },
    clients: () => texts.clients(),
  };
}
