import type { FormType } from '@spam-check/contracts';
import { normaliseForModel, words } from './canonical';
import { offerTokens } from './offers';

/**
 * What the model reads of the form a text came with (the check's `context`): the kind of form, and the
 * author's name and website as given. A comment, a contact message and an SMS-like message are different
 * genres: a phone number is ordinary in a contact message and a sign of the support scam under a blog
 * post; a link in a comment is what link drops are made of. The genre is a token of its own and is
 * combined with the text's cue tokens, so the model learns what each cue is worth in each genre. Without a
 * context none of these tokens exist and the text is judged as before.
 */
export interface FormView {
  type?: FormType | undefined;
  authorName?: string | undefined;
  authorUrl?: string | undefined;
}

/** The characters of an author field the model reads. */
const AUTHOR_LIMIT = 200;
/** A name of more words than this is a phrase, not a person's name. */
const NAME_WORDS = 4;

/**
 * Words of the commercial names that spammers put in the author field ("Cleaning Company Dubai", "Best
 * Essay Writing Service", "printer-support-number.com"), in en/de/fr.
 */
const COMMERCIAL = new Set([
  'best',
  'cheap',
  'buy',
  'online',
  'shop',
  'store',
  'services',
  'service',
  'company',
  'agency',
  'support',
  'helpline',
  'number',
  'repair',
  'cleaning',
  'movers',
  'seo',
  'marketing',
  'loans',
  'loan',
  'casino',
  'essay',
  'writing',
  'pills',
  'escort',
  'dating',
  'deals',
  'discount',
  'price',
  'kredit',
  'firma',
  'dienst',
  'günstig',
  'kaufen',
  'prêt',
  'crédit',
  'agence',
  'entreprise',
]);

function commercialWords(parts: readonly string[]): number {
  let count = 0;
  for (const part of parts) if (COMMERCIAL.has(part)) count++;
  return count;
}

/** The author tokens: a name made of keywords or too long for a name, a website whose name is keywords. */
export function authorTokens(form: FormView): string[] {
  const found: string[] = [];
  if (form.authorName !== undefined && form.authorName.trim() !== '') {
    const name = normaliseForModel(form.authorName, AUTHOR_LIMIT);
    const nameWords = words(name);
    if (name.includes('urltok') || name.includes('emailtok')) found.push('author:link');
    if (nameWords.length > NAME_WORDS) found.push('author:phrase');
    if (commercialWords(nameWords) > 0 || offerTokens(name).length > 0) found.push('author:keywords');
    if (name.includes('0')) found.push('author:digits');
  }
  if (form.authorUrl !== undefined && form.authorUrl.trim() !== '') {
    found.push('url:given');
    const host = form.authorUrl
      .toLowerCase()
      .replace(/^[a-z]+:\/\//, '')
      .slice(0, AUTHOR_LIMIT);
    const parts = host.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
    if (commercialWords(parts) > 0 || offerTokens(parts.join(' ')).length > 0) found.push('url:keywords');
    if ((host.split('/')[0]?.match(/-/g)?.length ?? 0) >= 2) found.push('url:hyphens');
  }
  return found;
}

/**
 * The genre tokens: `form:<type>`, and `form:<type>+<cue>` for each of the text's cue tokens (the cue
 * families, offers, support and praise patterns, links). Empty without a form type.
 */
export function genreTokens(form: FormView | undefined, cues: readonly string[]): string[] {
  if (form?.type === undefined) return [];
  const genre = `form:${form.type}`;
  return [genre, ...cues.map((cue) => `${genre}+${cue}`)];
}
