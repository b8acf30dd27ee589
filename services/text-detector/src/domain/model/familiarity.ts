import type { ModelHeader } from './classifier';

/**
 * Whether a text is on the model's own ground. The model was trained on German, French and English prose;
 * for anything else its score is a guess, so the cascade never lets it decide `spam` alone there:
 * - `language`: the detected language is not one the model was trained on, or none could be detected
 *   (too short, a list of numbers);
 * - `vocabulary`: fewer than `minCoverage` of the text's words have a weight in the model;
 * - `form`: code-like text, where brackets, braces and operators make up more than CODE_SYMBOL_SHARE of the
 *   visible characters (prose stays below 2 %, source code is around 10 %). A run of SEPARATOR_RUN or more
 *   of one symbol (`==========`, a separator line in an e-mail) is typography, not code: it is not counted.
 */
export type Unfamiliar = 'language' | 'vocabulary' | 'form';

const CODE_SYMBOLS = new Set([...'{}[]()<>=;|\\'].map((symbol) => symbol.charCodeAt(0)));
const CODE_SYMBOL_SHARE = 0.06;
const MIN_VISIBLE_FOR_FORM = 40;
const SEPARATOR_RUN = 4;

export function unfamiliarity(
  text: string,
  language: string | null,
  coverage: number,
  header: Pick<ModelHeader, 'languages' | 'minCoverage'>,
): Unfamiliar | undefined {
  if (language === null || !header.languages.includes(language)) return 'language';
  if (coverage < header.minCoverage) return 'vocabulary';
  let visible = 0;
  let symbols = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code <= 32) continue;
    visible++;
    if (!CODE_SYMBOLS.has(code)) continue;
    let run = 1;
    while (run < SEPARATOR_RUN && text.charCodeAt(i + run) === code) run++;
    if (run < SEPARATOR_RUN) {
      symbols++;
      continue;
    }
    while (text.charCodeAt(i + run) === code) run++;
    visible += run - 1;
    i += run - 1;
  }
  if (visible >= MIN_VISIBLE_FOR_FORM && symbols > CODE_SYMBOL_SHARE * visible) return 'form';
  return undefined;
}
