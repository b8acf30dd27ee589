import type { Rule } from './types';
import { REASON_WEIGHTS } from './weights';

/**
 * Repetition: one character repeated 10 times or more in a row (beyond punctuation rulers such as `-----`
 * or `=====`), one word making up over 30 % of at least 20 words, or one line of 10+ characters repeated
 * three times or more.
 */

const CHARACTER_RUN = /([^\s\-=_*#.~])\1{9,}/gu;
const WORD = /[\p{L}\p{N}]{2,40}/gu;

export const repetitionRule: Rule = ({ lower }) => {
  const characterRuns = lower.match(CHARACTER_RUN)?.length ?? 0;
  const counts = new Map<string, number>();
  let words = 0;
  let top = 0;
  WORD.lastIndex = 0;
  for (let match = WORD.exec(lower); match; match = WORD.exec(lower)) {
    words++;
    const count = (counts.get(match[0]) ?? 0) + 1;
    counts.set(match[0], count);
    if (count > top) top = count;
  }
  const lines = new Map<string, number>();
  let repeatedLine = 0;
  for (const line of lower.split('\n')) {
    const key = line.trim();
    if (key.length < 10) continue;
    const count = (lines.get(key) ?? 0) + 1;
    lines.set(key, count);
    if (count > repeatedLine) repeatedLine = count;
  }
  const repeatedWord = words >= 20 && top / words > 0.3;
  const repetitive = characterRuns > 0 || repeatedWord || repeatedLine >= 3;
  return {
    findings: repetitive ? [{ code: 'TEXT_REPETITION', weight: REASON_WEIGHTS.TEXT_REPETITION }] : [],
    signals: { top_word_share: words ? Math.round((top / words) * 1000) / 1000 : 0 },
  };
};
