import type { TextReasonCode } from '@spam-check/contracts';

/** A weight that grows with what the rule counted: `min(max, base + step × count)`. */
export interface GradedWeight {
  base: number;
  step: number;
  max: number;
}

/**
 * Every fixed rule weight of the text detector, in one table keyed by reason code (the e-mail detector keeps
 * its own the same way, in its `src/domain/scoring.ts`; README "Rule weights" says why). A rule file decides
 * whether its rule fires and what it counted; how much that is worth is read here. Not in the table: the
 * weights of the stages that measure their own (the model's probability, the LLM's confidence, the change a
 * client's adjustment made).
 *
 * The rule findings are features of the local model, their weight being the feature's value: a change of a
 * weight in `RULE_WEIGHTS` changes the model's inputs and needs a new model (`pnpm --filter @spam-check/text-detector
 * train`).
 */
export const RULE_WEIGHTS = {
  TEXT_LINKS: { base: 0, step: 0.1, max: 0.6 },
  TEXT_LINK_DENSITY: 0.4,
  TEXT_URL_SHORTENER: { base: 0.4, step: 0.1, max: 0.6 },
  TEXT_OBFUSCATION: { base: 0.35, step: 0.15, max: 0.7 },
  TEXT_CONTACT_ELSEWHERE: { base: 0.3, step: 0.2, max: 0.7 },
  TEXT_CRYPTO_WALLET: 0.6,
  TEXT_SHOUTING: 0.3,
  TEXT_REPETITION: 0.3,
} as const satisfies Partial<Record<TextReasonCode, number | GradedWeight>>;

/**
 * The rule weights and those of the stages that decide alone or only note. Only `RULE_WEIGHTS` are model
 * inputs (the model file records their hash, ../model/provenance.ts): a stage weight changes without a retrain.
 */
export const REASON_WEIGHTS = {
  ...RULE_WEIGHTS,
  // The stages that decide alone: their reason is the whole verdict.
  TEXT_DENY_LISTED: 1,
  TEXT_CLIENT_DENY_LISTED: 1,
  TEXT_TEST_FIXTURE: 1,
  TEXT_REPORTED_SPAM: 1,
  TEXT_REPORTED_HAM: 1,
  // A floor on the score (at least suspicious), not a score of its own.
  TEXT_CAMPAIGN: 0.5,
  // A client's site rules (./site-rules.ts): floors too.
  TEXT_LANGUAGE_NOT_ALLOWED: 0.5,
  TEXT_TOO_MANY_LINKS: 0.5,
  // Notes that change no score.
  TEXT_MODEL_UNFAMILIAR: 0,
  TEXT_LLM_UNAVAILABLE: 0,
} as const satisfies Partial<Record<TextReasonCode, number | GradedWeight>>;

export function gradedWeight(weight: GradedWeight, count: number): number {
  return Math.min(weight.max, weight.base + weight.step * count);
}
