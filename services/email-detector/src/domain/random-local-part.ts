/**
 * Random-looking local parts (bot sign-ups: `x7k2m9p4q1`, `a3f9c2e81b7d4e60`, `qxzvbnmtrk`). Only the
 * longest run between `.`, `_`, `-` and `+` is judged, and only from 8 characters up, so names, initials and
 * years (`j.dupont`, `anna.schmidt1987`) are never flagged. It is random when any of:
 * - hexadecimal of 16+ characters with at least two digits and two letters (hashes, UUID pieces);
 * - letters and digits switch 4+ times (`ab3cd5ef7g9`);
 * - 8+ letters with under 20 % vowels (y counts as one) and a run of 5+ consonants, after folding the common
 *   clusters `sch`, `ch`, `ck`, `ph`, `th` into one letter (so `mrschmidt` stays a name).
 * A weak signal on its own.
 */
const HEX = /^[0-9a-f]{16,}$/;
const VOWELS = /[aeiouyàâäéèêëïîôöùûüÿæœ]/;
const CLUSTERS = /sch|ch|ck|ph|th/g;

function switches(token: string): number {
  let count = 0;
  for (let i = 1; i < token.length; i++) {
    const wasDigit = token.charCodeAt(i - 1) <= 57;
    const isDigit = token.charCodeAt(i) <= 57;
    if (wasDigit !== isDigit) count++;
  }
  return count;
}

function fewVowels(token: string): boolean {
  const letters = token.replace(/[^\p{L}]/gu, '').replace(CLUSTERS, 'c');
  if (letters.length < 8) return false;
  let vowels = 0;
  let run = 0;
  let longestRun = 0;
  for (const char of letters) {
    if (VOWELS.test(char)) {
      vowels++;
      run = 0;
    } else longestRun = Math.max(longestRun, ++run);
  }
  return vowels / letters.length < 0.2 && longestRun >= 5;
}

export function looksRandom(localBase: string): boolean {
  let longest = '';
  for (const token of localBase.split(/[._+-]/)) if (token.length > longest.length) longest = token;
  if (longest.length < 8) return false;
  if (HEX.test(longest) && /\d.*\d/.test(longest) && /[a-f].*[a-f]/.test(longest)) return true;
  if (/^[a-z0-9]+$/.test(longest) && switches(longest) >= 4) return true;
  return fewVowels(longest);
}
