import type { ReasonParams, TextReasonCode } from '@spam-check/contracts';

/** What every rule sees: the normalised text, cut to RULE_TEXT_LIMIT characters, and its lower-case form. */
export interface RuleInput {
  text: string;
  lower: string;
  invisibleCharacters: number;
  lookAlikeCharacters: number;
}

export interface RuleFinding {
  code: TextReasonCode;
  /** Strength of the evidence for spam, 0..1. */
  weight: number;
  params?: ReasonParams;
}

export interface RuleOutcome {
  findings: RuleFinding[];
  signals: Record<string, number | boolean>;
}

export type Rule = (input: RuleInput) => RuleOutcome;

/** Rules look at most at this many characters, which bounds their cost. */
export const RULE_TEXT_LIMIT = 50_000;
