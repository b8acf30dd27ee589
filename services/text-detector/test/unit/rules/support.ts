/**
 * For the rule tests (one file per rule group, as in src/domain/rules/): each rule at its boundary, just below
 * (no finding), at (the first input that fires) and above its threshold (where the weight grows, its next step or
 * its cap). Rules without a number get their nearest non-matching and matching inputs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RuleInput } from '../../../src/domain/rules';
import type { Rule } from '../../../src/domain/rules/types';

export const readme = readFileSync(join(__dirname, '..', '..', '..', 'README.md'), 'utf8');

function run(rule: Rule, text: string, counts: Partial<RuleInput> = {}) {
  return rule({ text, lower: text.toLowerCase(), invisibleCharacters: 0, lookAlikeCharacters: 0, ...counts });
}

/** The weight of the rule's finding with this code, or undefined when it did not fire. */
export function weightOf(rule: Rule, code: string, text: string, counts: Partial<RuleInput> = {}) {
  return run(rule, text, counts).findings.find((finding) => finding.code === code)?.weight;
}

export const links = (count: number, host = 'example.org') =>
  Array.from({ length: count }, (_, i) => `https://${host}/page-${i}`).join(' and ');
