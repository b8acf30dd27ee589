import { contactRule } from './contact';
import { linksRule } from './links';
import { obfuscationRule } from './obfuscation';
import { repetitionRule } from './repetition';
import { shoutingRule } from './shouting';
import type { Rule } from './types';

export { RULE_TEXT_LIMIT, type RuleFinding, type RuleInput, type RuleOutcome } from './types';
export { denyListed } from './deny-list';
export { fixtureVerdict, FIXTURE_MARKERS } from './fixtures';

export const RULES: readonly Rule[] = [linksRule, obfuscationRule, contactRule, shoutingRule, repetitionRule];
