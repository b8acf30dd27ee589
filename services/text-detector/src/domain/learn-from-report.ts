import type { FeedbackLabel } from '@spam-check/contracts';
import { campaignSignatures } from './campaigns';
import type { Calibration, Thresholds } from './client-cuts';
import {
  decodeLearnable,
  indexedUnder,
  learningStep,
  learntKeys,
  reportKeyOf,
  type Learnable,
} from './client-feedback';
import { unavailable, type FeedbackMaps } from './feedback-maps';
import { bandKeys, decodeFingerprint } from './near-duplicate';

/**
 * What a client's report teaches. The rules:
 * - a report on a check learns from the record the check kept (./cascade/client-state.ts); a check the client
 *   does not have (unknown, expired or another client's) is not found;
 * - a report on a text learns from the text as a check would have kept it (../domain/check-text.ts
 *   `createTextLearner`);
 * - a text that teaches nothing (a rule decided it) is accepted and changes nothing;
 * - a report stores its label under the text's fingerprint (the same text reported again replaces the
 *   earlier label), indexes it under the fingerprint's LSH bands, takes one learning step on the client's
 *   weights and cuts (./client-feedback.ts `learningStep`), and keeps the canonical text for export;
 * - a sharing client's report also counts in the deployment's campaign memory under the text's campaign
 *   signatures (./campaigns.ts), until the client's reports drop it (their cap).
 */

export interface Learning {
  calibration: Calibration;
  /** The operator's thresholds, which a client's learnt cuts move (./client-cuts.ts). */
  thresholds: Thresholds;
  campaigns?: {
    minClients: number;
    /** Whether the client's reports count towards the campaign memory (its `campaigns.share`). */
    shares(client: string): Promise<boolean>;
  };
}

/** What the feedback route asks of the learning. */
export interface LearnFromReports {
  /** false when the client has no such check (unknown, expired or another client's). */
  reportCheck(client: string, checkId: string, label: FeedbackLabel): Promise<boolean>;
  reportText(client: string, learnable: Learnable | null, label: FeedbackLabel): Promise<void>;
}

async function learn(
  maps: FeedbackMaps,
  learning: Learning,
  client: string,
  learnable: Learnable | null,
  label: FeedbackLabel,
): Promise<void> {
  if (learnable === null) return;
  const { fingerprint } = learnable;
  const key = reportKeyOf(fingerprint);
  const features = learntKeys(learnable);
  const { campaigns } = maps;
  const [indexed, current, shares] = await Promise.all([
    maps.bands.getMany(client, bandKeys(fingerprint.signature)),
    maps.weights.getMany(client, features),
    campaigns && learning.campaigns ? learning.campaigns.shares(client) : false,
  ]);
  const step = learningStep(learnable, current, label, learning.calibration, learning.thresholds);
  const { title, body } = learnable.text;
  const [dropped] = await Promise.all([
    maps.reports.update(client, [[key, label]]),
    maps.bands.update(client, indexedUnder(fingerprint, indexed)),
    step.length > 0 ? maps.weights.update(client, step) : undefined,
    maps.texts.update(client, [[key, JSON.stringify({ title, body, language: learnable.language, label })]]),
    // A ham report withdraws the client's own contribution whether it shares now or not.
    campaigns && (shares || label === 'ham')
      ? campaigns.report(client, campaignSignatures(fingerprint), label, key)
      : undefined,
  ]);
  if (campaigns)
    await Promise.all(
      dropped.map(([source]) =>
        campaigns.withdrawDropped(client, campaignSignatures(decodeFingerprint(source)), source),
      ),
    );
}

export function learnFromReport(...report: Parameters<typeof learn>): Promise<void> {
  return learn(...report).catch(unavailable);
}

export async function learnFromCheck(
  maps: FeedbackMaps,
  learning: Learning,
  client: string,
  checkId: string,
  label: FeedbackLabel,
): Promise<boolean> {
  const record = await maps.checks.recall(client, checkId).catch(unavailable);
  if (record === undefined) return false;
  await learnFromReport(maps, learning, client, record === '' ? null : decodeLearnable(record), label);
  return true;
}
