/**
 * Operator deny list (TEXT_DENY_TERMS): a text containing any listed term, compared case-insensitively on
 * the normalised text (so look-alike letters and invisible characters do not hide it), is spam. Applied
 * before every other stage, fixtures included.
 */
export function denyListed(lower: string, terms: readonly string[]): string | undefined {
  return terms.find((term) => term !== '' && lower.includes(term));
}
