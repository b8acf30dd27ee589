import { contactRule } from './contact';
import { linksRule } from './links';
import { obfuscationRule } from './obfuscation';
import { repetitionRule } from './repetition';
import { shoutingRule } from './shouting';
import type { TextResult } from '@spam-check/contracts';
import type { NormalisedText } from '../normalise';
import { RULE_TEXT_LIMIT, type Rule, type RuleFinding } from './types';

export { type RuleFinding, type RuleInput } from './types';
export { createDenyList, type DenyList } from './deny-list';
export { fixtureVerdict } from './fixtures';
export { REASON_WEIGHTS } from './weights';
export { applySiteRules } from './site-rules';

const RULES: readonly Rule[] = [linksRule, obfuscationRule, contactRule, shoutingRule, repetitionRule];

export interface RuleEvidence {
  /** The normalised text the rules read (cut to RULE_TEXT_LIMIT) and its lower-case form. */
  text: string;
  lower: string;
  findings: RuleFinding[];
  signals: Partial<TextResult['signals']>;
  /** The findings combined as 1 - Π(1 - weight). */
  score: number;
}

/** Runs every rule on a normalised text; the service and the training script both call this. */
export function runRules(normalised: NormalisedText): RuleEvidence {
  const text = normalised.text.slice(0, RULE_TEXT_LIMIT);
  const lower = text.toLowerCase();
  const input = {
    text,
    lower,
    invisibleCharacters: normalised.invisibleCharacters,
    lookAlikeCharacters: normalised.lookAlikeCharacters,
  };
  const findings: RuleFinding[] = [];
  const signals: Partial<TextResult['signals']> = {};
  for (const rule of RULES) {
    const outcome = rule(input);
    findings.push(...outcome.findings);
    Object.assign(signals, outcome.signals);
  }
  const score = 1 - findings.reduce((rest, finding) => rest * (1 - finding.weight), 1);
  return { text, lower, findings, signals, score };
}
