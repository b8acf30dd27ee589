import type { Rule } from './types';
import { gradedWeight, REASON_WEIGHTS } from './weights';

/**
 * Obfuscated words: letters spelled out with separators (`v i a g r a`, `f.r.e.e`), look-alike letters
 * from other scripts inside Latin words, invisible characters, and digits or symbols standing in for letters
 * in well-known spam words (`v1agra`, `fr33`, `c@sh`).
 */

const SPACED_LETTERS = /(?:^|[^\p{L}])(?:\p{L}[ .\-_*+|]){4,40}\p{L}(?![\p{L}])/gu;
const LEET_WORDS =
  /\b(?:v[i1!|]agr[a@4]|c[i1!|][a@4]l[i1!|]s|fr[e3]{2}|c[a@4]\$h|pr[o0]m[o0]|b[i1!|]tc[o0][i1!|]n|l[o0]tt[e3]ry|w[i1!|]nn[e3]r|p[o0]rn|s[e3]xy?|c[a@4]s[i1!|]n[o0])(?![a-z0-9])/gi;
const PLAIN_WORD = /^[a-z]+$/i;

export const obfuscationRule: Rule = ({ text, invisibleCharacters, lookAlikeCharacters }) => {
  let spaced = 0;
  for (const match of text.matchAll(SPACED_LETTERS)) if (match[0] !== '') spaced++;
  let leet = 0;
  for (const match of text.matchAll(LEET_WORDS)) if (!PLAIN_WORD.test(match[0])) leet++;
  const score = spaced + leet + (lookAlikeCharacters > 0 ? 1 : 0) + (invisibleCharacters > 2 ? 1 : 0);
  return {
    findings:
      score > 0
        ? [{ code: 'TEXT_OBFUSCATION', weight: gradedWeight(REASON_WEIGHTS.TEXT_OBFUSCATION, score) }]
        : [],
    signals: {
      obfuscated_words: spaced + leet,
      look_alike_characters: lookAlikeCharacters,
      invisible_characters: invisibleCharacters,
    },
  };
};
