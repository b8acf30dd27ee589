import type { FeedbackLabel } from '@spam-check/contracts';

/**
 * A client's own decision cuts, learnt from its reports (docs/design.md, Learning from reports). The rules:
 * - each client has two offsets, in the model's margin units (the log-odds before calibration): one for the
 *   `spam` cut, one for the `suspicious` cut. A check compares its score with the client's thresholds moved
 *   by them (`withLearntCuts`); the score itself is the model's (with the client's correction);
 * - a report moves a cut only when the reported text is on its wrong side now, with what the client has
 *   learnt so far (`cutSteps`): `ham` judged `spam` raises the spam cut by STEP.spamUp, `spam` judged
 *   `suspicious` lowers it by STEP.spamDown; `ham` judged `suspicious` raises the suspicious cut by
 *   STEP.suspiciousUp, `spam` judged `ham` lowers it by STEP.suspiciousDown;
 * - the steps are uneven on purpose: one ham judged `spam` undoes many spam reports near the cut, so the cut
 *   settles where a ham judged `spam` is rarer than a missed spam by that ratio (the `spam` verdict stays
 *   conservative); the suspicious cut leans the other way (a spam judged `ham` is the worse miss there);
 * - the offsets are bounded (LIMITS): a client's reports can make its `spam` verdict stricter by far, looser by
 *   little, and the suspicious cut never passes the spam cut;
 * - the offsets are stored with the client's weights under reserved keys (CUT_KEYS, never a feature index),
 *   so a check reads them with the weights, in the same bounded read.
 */

/** Weight keys of the offsets (feature indices are never negative). */
export const CUT_KEYS = { spam: -2, suspicious: -3 } as const;

const STEP = { spamUp: 0.5, spamDown: 0.05, suspiciousUp: 0.05, suspiciousDown: 0.1 } as const;
const LIMITS = {
  spam: { low: -1, high: 8 },
  suspicious: { low: -2, high: 2 },
} as const;

export interface Cuts {
  spam: number;
  suspicious: number;
}

export interface Thresholds {
  spamThreshold: number;
  suspiciousThreshold: number;
}

/** The calibration of the model: margin → probability for a language, and back. */
export interface Calibration {
  calibrate(margin: number, language: string | null): number;
  marginFor(probability: number, language: string | null): number;
}

/** The client's offsets among the weights read for a check (0 when it has none). */
export function cutsOf(weights: ReadonlyMap<number, { value: number }>): Cuts {
  return {
    spam: weights.get(CUT_KEYS.spam)?.value ?? 0,
    suspicious: weights.get(CUT_KEYS.suspicious)?.value ?? 0,
  };
}

/** Probability thresholds moved by the client's offsets, for a text of `language`. */
export function withLearntCuts<T extends Thresholds>(
  thresholds: T,
  cuts: Cuts,
  calibration: Calibration,
  language: string | null,
): T {
  if (cuts.spam === 0 && cuts.suspicious === 0) return thresholds;
  const moved = (threshold: number, offset: number) =>
    offset === 0 || threshold <= 0 || threshold >= 1
      ? threshold
      : calibration.calibrate(calibration.marginFor(threshold, language) + offset, language);
  const spamThreshold = moved(thresholds.spamThreshold, cuts.spam);
  const suspiciousThreshold = Math.min(spamThreshold, moved(thresholds.suspiciousThreshold, cuts.suspicious));
  return Object.assign({}, thresholds, { spamThreshold, suspiciousThreshold });
}

/**
 * A text's margin with the client's correction as each cut sees it: the spam cut sees only the part of the
 * correction that counts for `spam` (./client-feedback.ts `adjustment`), so `spam` ≤ `suspicious`.
 */
export interface Margins {
  suspicious: number;
  spam: number;
}

/**
 * The offsets after a report on a text with these margins, judged against the thresholds moved by the current
 * offsets (the verdict the client saw); `undefined` when they stay.
 */
export function cutSteps(
  margins: Margins,
  label: FeedbackLabel,
  cuts: Cuts,
  thresholds: Thresholds,
  calibration: Calibration,
  language: string | null,
): Cuts | undefined {
  const spamCut = calibration.marginFor(thresholds.spamThreshold, language) + cuts.spam;
  const suspiciousCut = Math.min(
    spamCut,
    calibration.marginFor(thresholds.suspiciousThreshold, language) + cuts.suspicious,
  );
  const next = { ...cuts };
  const clamp = (value: number, { low, high }: { low: number; high: number }) =>
    Math.min(high, Math.max(low, value));
  const verdict =
    margins.spam >= spamCut ? 'spam' : margins.suspicious >= suspiciousCut ? 'suspicious' : 'ham';
  if (label === 'ham' && verdict === 'spam') next.spam = clamp(cuts.spam + STEP.spamUp, LIMITS.spam);
  else if (label === 'ham' && verdict === 'suspicious')
    next.suspicious = clamp(cuts.suspicious + STEP.suspiciousUp, LIMITS.suspicious);
  else if (label === 'spam' && verdict === 'ham')
    next.suspicious = clamp(cuts.suspicious - STEP.suspiciousDown, LIMITS.suspicious);
  else if (label === 'spam' && margins.suspicious < spamCut)
    next.spam = clamp(cuts.spam - STEP.spamDown, LIMITS.spam);
  return next.spam === cuts.spam && next.suspicious === cuts.suspicious ? undefined : next;
}
