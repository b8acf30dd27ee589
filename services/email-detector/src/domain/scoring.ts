import type { EmailReasonCode, Verdict } from '@spam-check/contracts';

/**
 * Reasons → score and verdict. Each reason has a fixed weight in [-1, 1]. Positive weights combine like
 * independent pieces of evidence (noisy-OR: score = 1 − Π(1 − w)), so two weak signals weigh more than one
 * but never reach certainty; negative weights then damp the score by the factor (1 + w): −1 (allow list,
 * ham fixture, reported ham) pins it at 0. Verdict: spam from 0.8, suspicious from 0.5, else ham. Score rounded to 0.001.
 * Every weight of the e-mail detector is in this file (README "Reasons and weights" says why); the rule files decide
 * whether a rule fires.
 */
export const REASON_WEIGHTS: Record<EmailReasonCode, number> = {
  EMAIL_INVALID_SYNTAX: 1,
  EMAIL_CONTROL_CHARACTERS: 1,
  EMAIL_DENY_LISTED: 1,
  EMAIL_ALLOW_LISTED: -1,
  EMAIL_CLIENT_DENY_LISTED: 1,
  EMAIL_CLIENT_ALLOW_LISTED: -1,
  EMAIL_TEST_FIXTURE: 1,
  EMAIL_REPORTED_SPAM: 1,
  EMAIL_REPORTED_HAM: -1,
  EMAIL_CAMPAIGN: 0.6,
  EMAIL_DISPOSABLE_DOMAIN: 0.9,
  EMAIL_DOMAIN_NOT_FOUND: 0.9,
  EMAIL_NULL_MX: 0.9,
  EMAIL_NO_MAIL_SERVER: 0.7,
  EMAIL_RANDOM_LOCAL_PART: 0.45,
  EMAIL_DOMAIN_TYPO: 0.4,
  EMAIL_ROLE_ACCOUNT: 0.3,
  EMAIL_FREE_PROVIDER: 0.1,
  EMAIL_DNS_UNKNOWN: 0,
};

/** A test fixture's weight by the verdict it stands for (fixtures.ts); it replaces EMAIL_TEST_FIXTURE's. */
export const FIXTURE_WEIGHTS: Readonly<Record<Verdict, number>> = { spam: 1, suspicious: 0.6, ham: -1 };

export const VERDICT_THRESHOLDS = { spam: 0.8, suspicious: 0.5 } as const;

export type VerdictThresholds = { spam: number; suspicious: number };

export function verdictOf(score: number, thresholds: VerdictThresholds = VERDICT_THRESHOLDS): Verdict {
  if (score >= thresholds.spam) return 'spam';
  if (score >= thresholds.suspicious) return 'suspicious';
  return 'ham';
}

export function scoreOf(
  weights: readonly number[],
  thresholds: VerdictThresholds = VERDICT_THRESHOLDS,
): { score: number; verdict: Verdict } {
  let notSpam = 1;
  let damping = 1;
  for (const weight of weights) {
    if (weight > 0) notSpam *= 1 - weight;
    else damping *= 1 + weight;
  }
  const score = Math.round((1 - notSpam) * damping * 1000) / 1000;
  return { score, verdict: verdictOf(score, thresholds) };
}
