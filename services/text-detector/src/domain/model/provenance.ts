import { createHash } from 'node:crypto';
import { RULE_WEIGHTS } from '../rules/weights';
import { EXTRACTOR_VERSION } from './extractor';

/** The command that trains a model for the code as it is (README, model card). */
export const RETRAIN_COMMAND = 'pnpm --filter @spam-check/text-detector train';

/**
 * What a model was trained with, recorded in its file: the rule weights are the values of the model's rule
 * features, and the extractor makes all the others, so a model only means something with both as they were.
 */
export interface TrainedWith {
  /** SHA-256 (first 16 hex digits) of the rule weights table (`RULE_WEIGHTS`), its entries sorted by reason code. */
  rulesHash: string;
  extractorVersion: number;
}

function rulesHash(weights: object): string {
  const entries = Object.entries(weights).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash('sha256').update(JSON.stringify(entries)).digest('hex').slice(0, 16);
}

/** What this code would record in a model trained now. */
export function trainedWithNow(): TrainedWith {
  return { rulesHash: rulesHash(RULE_WEIGHTS), extractorVersion: EXTRACTOR_VERSION };
}

/** Throws when a model was made under other rule weights or another extractor, naming the retrain command. */
export function assertTrainedWithNow(recorded: TrainedWith | undefined, path: string): void {
  const now = trainedWithNow();
  const differences = [
    recorded?.rulesHash !== now.rulesHash &&
      `rule weights ${recorded?.rulesHash ?? 'unrecorded'} (now ${now.rulesHash})`,
    recorded?.extractorVersion !== now.extractorVersion &&
      `feature extractor version ${recorded?.extractorVersion ?? 'unrecorded'} (now ${now.extractorVersion})`,
  ].filter(Boolean);
  if (differences.length === 0) return;
  throw new Error(
    `the text model ${path} was trained with ${differences.join(' and ')}: ` +
      `retrain it with \`${RETRAIN_COMMAND}\` (writes model/text-model.bin)`,
  );
}
