/**
 * The canonical text the model reads, the same at training and at inference. Case, Unicode form, zero-width
 * characters and the spacing around punctuation are erased, because the training sources differ in exactly
 * those (Enron is lower-cased and tokenised with spaces, the others raw); URLs (also bare `name.com`
 * domains, and the bare `http` the tweet corpora put in place of links), e-mail addresses and digits become
 * placeholders, so the model learns "has a link", not the link.
 */

import { INVISIBLE } from '../normalise';

export const MODEL_TEXT_LIMIT = 4000;

const DIGIT = /\p{Nd}/gu;
/** A bare domain such as `murdev.com` or `kidsmediausa.com/kids`, after the spacing around dots is erased. */
const BARE_DOMAIN =
  /^[\p{L}\p{N}-]{2,63}(?:\.[\p{L}\p{N}-]{1,63})*\.(?:com|net|org|info|biz|ru|de|fr|ch|at|be|uk|co|io|ly|me|tv|us|cc|xyz|online|site|top|club|gl|gd|to)(?:[/?].*)?$/u;

/**
 * The canonical form the model sees; also used to tokenise. When `hosts` is given, the host of each link
 * that became `urltok` is added to it (for ./link-names.ts).
 */
export function normaliseForModel(text: string, limit = MODEL_TEXT_LIMIT, hosts?: string[]): string {
  const lowered = text
    .slice(0, 3 * limit)
    .normalize('NFKC')
    .toLowerCase()
    .replace(INVISIBLE, '')
    .replace(MENTION, '$1mentiontok');
  let out = '';
  for (const chunk of spacedChunks(lowered)) {
    const replaced =
      MAYBE_PLACEHOLDER.test(chunk) || chunk.startsWith('http') ? placeholder(chunk) : undefined;
    if (hosts && replaced === 'urltok') hosts.push(hostOf(chunk));
    out = out === '' ? (replaced ?? chunk) : `${out} ${replaced ?? chunk}`;
    if (out.length > limit) break;
  }
  // Placeholders hold no digits, so replacing digits after them is the same as replacing them per chunk.
  return out.replace(DIGIT, '0').slice(0, limit);
}

/**
 * The same chunks as `text.replace(/\s+/g, ' ').replace(/ ?([^\p{L}\p{N}\s]) ?/gu, '$1').split(' ')`
 * without the empty ones, in one pass over the characters (the regular expressions cost more than the
 * rest of the model on a 2 KB text).
 */
function spacedChunks(text: string): string[] {
  const chunks: string[] = [];
  const length = text.length;
  let current = '';
  let segment = -1;
  let i = 0;
  const spaceRunEnd = (from: number) => {
    let j = from;
    while (j < length && isSpace(text.charCodeAt(j))) j++;
    return j;
  };
  while (i < length) {
    const code = text.charCodeAt(i);
    if (isSpace(code)) {
      const end = spaceRunEnd(i + 1);
      if (segment >= 0) current += text.slice(segment, i);
      segment = -1;
      // A space before punctuation disappears; otherwise it ends the chunk.
      if (!(end < length && isPunctuation(text, end, text.charCodeAt(end))) && current !== '') {
        chunks.push(current);
        current = '';
      }
      i = end;
      continue;
    }
    if (segment < 0) segment = i;
    const punctuation = isPunctuation(text, i, code);
    i += code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1)) ? 2 : 1;
    if (punctuation && i < length && isSpace(text.charCodeAt(i))) {
      // So does one (collapsed) space after punctuation.
      current += text.slice(segment, i);
      segment = -1;
      i = spaceRunEnd(i + 1);
    }
  }
  if (segment >= 0) current += text.slice(segment);
  if (current !== '') chunks.push(current);
  return chunks;
}

const SPACE = /\s/;
const LETTER_OR_NUMBER = /[\p{L}\p{N}]/u;

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

function isSpace(code: number): boolean {
  if (code < 128) return code === 32 || (code >= 9 && code <= 13);
  return SPACE.test(String.fromCharCode(code));
}

function isPunctuation(text: string, i: number, code: number): boolean {
  if (code < 128) {
    return !((code >= 97 && code <= 122) || (code >= 48 && code <= 57) || (code >= 65 && code <= 90));
  }
  const point = text.codePointAt(i) as number;
  return !LETTER_OR_NUMBER.test(String.fromCodePoint(point)) && !SPACE.test(String.fromCodePoint(point));
}

/** `@name` (not an address): the tweet corpora wrote every user name as `@user`, real posts have names. */
const MENTION = /(^|[\s(])@[\p{L}\p{N}_]{1,30}(?![\p{L}\p{N}_.@])/gu;

/** Only chunks with one of these characters can be a link or an address. */
const MAYBE_PLACEHOLDER = /[.:@?]/;

function placeholder(chunk: string): string | undefined {
  if (chunk.includes('://') || chunk.startsWith('www.') || chunk.includes('.www.')) return 'urltok';
  // The tweet corpora replaced every link with a bare `http`: the same placeholder as a real link.
  if (BARE_HTTP.test(chunk)) return 'urltok';
  const at = chunk.indexOf('@');
  if (at > 0 && chunk.indexOf('.', at) > at + 1) return 'emailtok';
  if (chunk.length >= 5 && BARE_DOMAIN.test(chunk)) return 'urltok';
  if (chunk.startsWith('watch?v=')) return 'urltok';
  return undefined;
}

const BARE_HTTP = /^https?(?![a-z0-9])/;

/** `https://www.shop.example.com/x?y` → `www.shop.example.com`; a bare `http` gives `http`. */
function hostOf(link: string): string {
  const scheme = link.indexOf('://');
  const rest = scheme >= 0 ? link.slice(scheme + 3) : link;
  const end = rest.search(HOST_END);
  return end >= 0 ? rest.slice(0, end) : rest;
}

const HOST_END = /[/?#:]/;

const WORD = /[\p{L}\p{N}]+|[!?$€£%*]/gu;

export function words(normalised: string): string[] {
  return normalised.match(WORD) ?? [];
}
