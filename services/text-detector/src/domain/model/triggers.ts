/**
 * A phrase list compiled twice: as one regular expression, and as the trigger words that any match of it
 * must contain. A check reads the text's words once, and only the lists whose trigger words occur run their
 * expression: most texts name none of the cue, offer or support phrases, and an alternation of a hundred
 * phrases tried at every character costs more than the rest of the model on a 2 KB text.
 *
 * Each phrase's trigger is its longest word outside groups and optional parts (`(?:personal|payday)
 * loans?` → `loan`, `help ?(?:line|desk)s?` → `help`); a phrase whose words are all inside groups or
 * optional (`(?:kundendienst|hotline)`) must be written as separate phrases. A token triggers a phrase when
 * it starts with the trigger, so stems and plural forms are covered. A symbol class (`[$€£]`) triggers on
 * each of its symbols.
 */
export interface PhraseList {
  readonly name: string;
  readonly phrases: readonly string[];
  /** The expression that decides; any match of it must contain a trigger word of `phrases`. */
  readonly pattern: RegExp;
}

interface Trigger {
  word: string;
  lists: number[];
}

/**
 * Tokens are looked up by their first PREFIX characters; a trigger shorter than that (`my`, `$`) matches
 * whole tokens only.
 */
const PREFIX = 3;

/** The first PREFIX characters of a word as a number (no string is made per token). */
function prefixKey(word: string): number {
  let key = word.length < PREFIX ? word.length : PREFIX;
  for (let i = 0; i < PREFIX && i < word.length; i++) key = key * 65536 + word.charCodeAt(i);
  return key;
}

/** The trigger words of one phrase, in the form `words()` gives the canonical text's tokens. */
export function triggerOf(phrase: string): string[] {
  if (/^\[[^\]]+\]$/.test(phrase)) return Array.from(phrase.slice(1, -1));
  let rest = phrase.replace(/\\[bw]\*?/g, ' ');
  // Groups, innermost first, and optional characters or classes: none of them is sure to be in a match.
  for (let before = ''; before !== rest;) {
    before = rest;
    rest = rest.replace(/\((?:\?:)?[^()]*\)[?*+]?/g, ' ');
  }
  rest = rest.replace(/(?:\[[^\]]*\]|.)[?*]/gu, ' ').replace(/\[[^\]]*\]\+?/g, ' ');
  const words = rest.match(/[\p{L}\p{N}]+/gu) ?? [];
  const longest = words.reduce((best, word) => (word.length > best.length ? word : best), '');
  if (longest === '') throw new Error(`the phrase ${phrase} has no word outside groups and optional parts`);
  return [longest];
}

/** Phrase lists matched only when the text's tokens trigger them. */
export class PhraseMatcher {
  private readonly byPrefix = new Map<number, Trigger[]>();
  private readonly seen: Uint8Array;

  constructor(private readonly lists: readonly PhraseList[]) {
    this.seen = new Uint8Array(lists.length);
    const triggers = new Map<string, Trigger>();
    lists.forEach(({ phrases }, list) => {
      for (const phrase of phrases)
        for (const word of triggerOf(phrase)) {
          const trigger = triggers.get(word) ?? { word, lists: [] };
          if (!trigger.lists.includes(list)) trigger.lists.push(list);
          triggers.set(word, trigger);
        }
    });
    for (const trigger of triggers.values()) {
      const key = prefixKey(trigger.word);
      this.byPrefix.set(key, [...(this.byPrefix.get(key) ?? []), trigger]);
    }
  }

  /** The names of the lists whose expression matches the text, in list order. */
  matches(text: string, tokens: readonly string[]): string[] {
    const seen = this.seen;
    seen.fill(0);
    let any = false;
    for (const token of tokens) {
      const candidates = this.byPrefix.get(prefixKey(token));
      if (candidates === undefined) continue;
      for (const trigger of candidates)
        if (token.startsWith(trigger.word)) {
          any = true;
          for (const list of trigger.lists) seen[list] = 1;
        }
    }
    if (!any) return [];
    const found: string[] = [];
    this.lists.forEach(({ name, pattern }, list) => {
      if (seen[list] === 1 && pattern.test(text)) found.push(name);
    });
    return found;
  }
}
