import { AhoCorasick } from '@monyone/aho-corasick';

/** Whether a lowercased, normalised text contains one of the terms. */
export type DenyList = (lower: string) => boolean;

/**
 * A deny list (the operator's TEXT_DENY_TERMS, or a client's `deny_terms`): a text containing any listed
 * term, compared case-insensitively on the normalised text (so look-alike letters and invisible characters
 * do not hide it), is spam. The operator's list is applied before every other stage, fixtures included.
 *
 * The terms are compiled once into an Aho-Corasick automaton, so a check reads the text once whatever the
 * number and length of the terms: a client's 1,000 long terms cost no more per character than one (with
 * `includes` per term, they cost terms × text length, which a client could use to stall the detector).
 */
export function createDenyList(terms: readonly string[]): DenyList {
  const compiled = [...new Set(terms.map((term) => term.normalize('NFKC').toLowerCase()))].filter(
    (term) => term !== '',
  );
  if (compiled.length === 0) return () => false;
  const automaton = new AhoCorasick(compiled);
  return (lower) => automaton.hasKeywordInText(lower);
}
