import type { Rule } from './types';
import { REASON_WEIGHTS } from './weights';

/**
 * Shouting: over 70 % capital letters among at least 20 letters, or runs of three or more exclamation marks
 * (or many exclamation marks overall).
 */

const LETTER = /\p{L}/u;
const EXCLAMATION_RUN = /!{3,}/g;

export const shoutingRule: Rule = ({ text }) => {
  let letters = 0;
  let upper = 0;
  let exclamations = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // ASCII on a fast path; other characters through the Unicode letter test.
    if (code === 33) exclamations++;
    else if (code >= 65 && code <= 90) {
      letters++;
      upper++;
    } else if (code >= 97 && code <= 122) letters++;
    else if (code > 127) {
      const char = text[i] as string;
      if (LETTER.test(char)) {
        letters++;
        if (char !== char.toLowerCase() && char === char.toUpperCase()) upper++;
      }
    }
  }
  const uppercaseRatio = letters ? upper / letters : 0;
  const runs = text.match(EXCLAMATION_RUN)?.length ?? 0;
  const shouting =
    (letters >= 20 && uppercaseRatio > 0.7) ||
    runs >= 2 ||
    (letters > 0 && exclamations / letters > 0.05 && exclamations >= 5);
  return {
    findings: shouting ? [{ code: 'TEXT_SHOUTING', weight: REASON_WEIGHTS.TEXT_SHOUTING }] : [],
    signals: { uppercase_ratio: Math.round(uppercaseRatio * 1000) / 1000, exclamation_marks: exclamations },
  };
};
