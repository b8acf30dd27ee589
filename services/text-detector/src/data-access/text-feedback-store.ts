import type { FeedbackLabel } from '@spam-check/contracts';
import { AppError, type CampaignMemory, type CheckMemory, type ClientMap } from '@spam-check/service-kit';
import type { TextFeedback } from '../domain/check-text';
import { campaignReporters, campaignSignatures } from '../domain/campaigns';
import {
  decodeLearnable,
  encodeLearnable,
  indexedUnder,
  learningStep,
  learntKeys,
  lookupKeys,
  nearReports,
  reportKeyOf,
  weightsOf,
  type Learnable,
} from '../domain/client-feedback';
import type { Calibration, Thresholds } from '../domain/client-cuts';
import { bandKeys, type Fingerprint } from '../domain/near-duplicate';

/**
 * The text detector's feedback storage: per client, check records (what a report would learn from, for the
 * retention time), and four capped maps: the reports (fingerprint → label), an index of the reports by LSH
 * band, the adjustment's weights, and the canonical texts of the reports (read by `feedback export` only).
 * A check reads a bounded part of them (../domain/client-feedback.ts): two reads of one client's maps, and a
 * third only when the index names a near-duplicate. Nothing is cached in the process, so a report applies on
 * every replica at once. With `campaigns`, a sharing client's reports also count in the deployment's
 * campaign memory, and a protecting client's checks read it (../domain/campaigns.ts).
 */
export interface TextFeedbackStore extends TextFeedback {
  /** false when the client has no such check (unknown, expired or another client's). */
  reportCheck(client: string, checkId: string, label: FeedbackLabel): Promise<boolean>;
  reportText(client: string, learnable: Learnable | null, label: FeedbackLabel): Promise<void>;
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
  calibration: Calibration;
  /** The operator's thresholds, which a client's learnt cuts move (../domain/client-cuts.ts). */
  thresholds: Thresholds;
  campaigns?: {
    memory: CampaignMemory;
    minClients: number;
    /** Whether the client's reports count towards the campaign memory (its `campaigns.share`). */
    shares(client: string): Promise<boolean>;
  };
}

/** Reports whose labels a check looks up when the index names several near-duplicates. */
const LOOKED_UP_REPORTS = 8;

function unavailable(error: unknown): never {
  if (error instanceof AppError) throw error;
  throw new AppError('SERVICE_UNAVAILABLE', { cause: error, internal: 'feedback store unavailable' });
}

export function createTextFeedbackStore(options: TextFeedbackStoreOptions): TextFeedbackStore {
  const { checks, reports, bands, weights, texts, campaigns } = options;

  const report = async (client: string, learnable: Learnable | null, label: FeedbackLabel) => {
    if (learnable === null) return;
    const { fingerprint } = learnable;
    const key = reportKeyOf(fingerprint);
    const features = learntKeys(learnable);
    const [indexed, current, shares] = await Promise.all([
      bands.getMany(client, bandKeys(fingerprint.signature)),
      weights.getMany(client, features),
      campaigns ? campaigns.shares(client) : false,
    ]);
    const step = learningStep(learnable, current, label, options.calibration, options.thresholds);
    const { title, body } = learnable.text;
    await Promise.all([
      reports.update(client, [[key, label]]),
      bands.update(client, indexedUnder(fingerprint, indexed)),
      step.length > 0 ? weights.update(client, step) : undefined,
      texts.update(client, [[key, JSON.stringify({ title, body, language: learnable.language, label })]]),
      // A ham report withdraws the client's own contribution whether it shares now or not.
      campaigns && (shares || label === 'ham')
        ? campaigns.memory.report(client, campaignSignatures(fingerprint), label)
        : undefined,
    ]);
  };

  const labelOf = async (client: string, near: string[]) => {
    if (near.length === 0) return undefined;
    const labels = await reports.getMany(client, near.slice(0, LOOKED_UP_REPORTS));
    return labels.find((label) => label !== undefined) as FeedbackLabel | undefined;
  };

  const campaignOf = async (fingerprint: Fingerprint) => {
    if (!campaigns) return 0;
    const counts = await campaigns.memory.reporters(campaignSignatures(fingerprint));
    return campaignReporters(counts, campaigns.minClients);
  };

  return {
    async lookup(client, fingerprint, vector, protect) {
      const keys = lookupKeys({ fingerprint }, vector);
      const [indexed, found, campaign] = await Promise.all([
        bands.getMany(client, keys.bands),
        weights.getMany(client, keys.features),
        protect ? campaignOf(fingerprint) : 0,
      ]).catch(unavailable);
      const reported = await labelOf(client, nearReports(fingerprint, indexed)).catch(unavailable);
      return { reported, weights: weightsOf(keys.features, found), campaign };
    },
    async remember(client, checkId, learnable) {
      const value = learnable();
      await checks.remember(client, checkId, value === null ? '' : encodeLearnable(value)).catch(unavailable);
    },
    async reportCheck(client, checkId, label) {
      const record = await checks.recall(client, checkId).catch(unavailable);
      if (record === undefined) return false;
      await report(client, record === '' ? null : decodeLearnable(record), label).catch(unavailable);
      return true;
    },
    reportText: (client, learnable, label) => report(client, learnable, label).catch(unavailable),
    async reportedTexts(client) {
      return (await texts.all(client)).map(
        ([, value]) => JSON.parse(value) as Awaited<ReturnType<TextFeedbackStore['reportedTexts']>>[number],
      );
    },
    clients: () => texts.clients(),
  };
}
