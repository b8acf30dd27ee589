import { reasonMessage } from '@spam-check/contracts';
import { REASON_WEIGHTS } from '../rules';
import type { CascadeCheck, CascadeConfig, Decision, Reason, TextCheck } from './types';

/** Scores are rounded to this step; an unfamiliar text's local score stays one step below `spam`. */
export const SCORE_STEP = 0.0001;
export const round = (value: number) => Math.round(value * 10_000) / 10_000;

export const verdictOf = (config: CascadeConfig, score: number) =>
  score >= config.spamThreshold ? 'spam' : score >= config.suspiciousThreshold ? 'suspicious' : 'ham';

/** A deny list's decision: spam by the rules, its own reason first, then every rule finding. */
export function deniedBy(
  code: 'TEXT_DENY_LISTED' | 'TEXT_CLIENT_DENY_LISTED',
  findings: readonly Reason[],
): Decision {
  return { score: 1, engine: 'rules', reasons: [{ code, weight: REASON_WEIGHTS[code] }, ...findings] };
}

/** The answer of a check from the stage that decided it, against the client's thresholds. */
export function answerOf(check: CascadeCheck, decision: Decision): TextCheck {
  const verdict = verdictOf(check.config, decision.score);
  return {
    id: check.id,
    spam: verdict === 'spam',
    verdict,
    score: round(decision.score),
    reasons: decision.reasons.map(({ code, weight, params }) => ({
      code,
      message: reasonMessage(code, check.input.language, params),
      weight: round(weight),
    })),
    request_id: check.input.requestId,
    language: check.language,
    engine: decision.engine,
    degraded: decision.degraded ?? false,
    signals: check.signals,
  };
}
