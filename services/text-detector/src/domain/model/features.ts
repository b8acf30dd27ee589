/**
 * Feature extraction of the local model, shared by the training script and the service so both see exactly
 * the same numbers. Rules it enforces:
 * - case, Unicode form, zero-width characters and the spacing around punctuation are erased, because the
 *   training sources differ in exactly those (Enron is lower-cased and tokenised with spaces, the others raw);
 * - URLs (also bare `name.com` domains), e-mail addresses and digits become placeholders, so the model learns
 *   "has a link", not the link;
 * - only the first MODEL_TEXT_LIMIT characters of normalised text count, and character n-grams only the
 *   first `charLimit` of them: the same window for every source, and a bounded cost per check;
 * - features are hashed (no vocabulary to ship): word unigrams and bigrams, title words, character n-grams,
 *   a few coarse shape tokens and language-independent cue tokens (promotion, money, urgency, call to
 *   action in en/de/fr; link + promotion); each block is L2-normalised so long and short texts are comparable.
 */

export const MODEL_TEXT_LIMIT = 4000;

export interface SparseVector {
  indices: Int32Array;
  values: Float32Array;
}

export interface FeatureSpace {
  /** log2 of the number of hash buckets. */
  bits: number;
  /** L2 norm of each block: words (unigrams, bigrams, title words), character n-grams, shape tokens, cues. */
  wordNorm: number;
  charNorm: number;
  shapeNorm: number;
  /** 0 or absent: no cue block (format of the first model). */
  cueNorm?: number;
  /** Normalised characters (title and body) the model reads; default and maximum MODEL_TEXT_LIMIT. */
  textLimit?: number;
  /** Character n-grams of length 3..charMax (default 5) over the first charLimit characters (default all). */
  charMax?: number;
  charLimit?: number;
  /** Feature-hash version: 1 = first model (string hashes), 2 = cheaper combined hashes. */
  hash?: number;
  /**
   * Genre: texts whose normalised title + body is shorter than this many characters are "short" (message,
   * comment), the others "long" (e-mail-like). Each genre gets a token of its own (value 1, its intercept).
   * 0 or absent: no genre.
   */
  genreLength?: number;
  /** Blocks whose features also get a per-genre copy (bits: 1 words, 2 characters, 4 shape, 8 cues). */
  genreCopy?: number;
  /**
   * When set, title words form a block of their own with this norm (else they share the word block), and
   * `titleInText: false` keeps the title out of the text the other blocks read.
   */
  titleNorm?: number;
  titleInText?: boolean;
}

export interface ModelInput {
  title: string;
  body: string;
}

const INVISIBLE = /[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]/g;
const DIGIT = /\p{Nd}/gu;
/** A bare domain such as `murdev.com` or `kidsmediausa.com/kids`, after the spacing around dots is erased. */
const BARE_DOMAIN =
  /^[\p{L}\p{N}-]{2,63}(?:\.[\p{L}\p{N}-]{1,63})*\.(?:com|net|org|info|biz|ru|de|fr|ch|at|be|uk|co|io|ly|me|tv|us|cc|xyz|online|site|top|club|gl|gd|to)(?:[/?].*)?$/u;

/** The canonical form the model sees; also used to tokenise. */
export function normaliseForModel(text: string, bareDomains = false, limit = MODEL_TEXT_LIMIT): string {
  const lowered = text
    .slice(0, 3 * limit)
    .normalize('NFKC')
    .toLowerCase()
    .replace(INVISIBLE, '');
  let out = '';
  for (const chunk of spacedChunks(lowered)) {
    const replaced = MAYBE_PLACEHOLDER.test(chunk) ? placeholder(chunk, bareDomains) : undefined;
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
export function spacedChunks(text: string): string[] {
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

/** Only chunks with one of these characters can be a link or an address. */
const MAYBE_PLACEHOLDER = /[.:@?]/;

function placeholder(chunk: string, bareDomains: boolean): string | undefined {
  if (chunk.includes('://') || chunk.startsWith('www.') || chunk.includes('.www.')) return 'urltok';
  const at = chunk.indexOf('@');
  if (at > 0 && chunk.indexOf('.', at) > at + 1) return 'emailtok';
  if (bareDomains && chunk.length >= 5 && BARE_DOMAIN.test(chunk)) return 'urltok';
  if (bareDomains && chunk.startsWith('watch?v=')) return 'urltok';
  return undefined;
}

const WORD = /[\p{L}\p{N}]+|[!?$€£%*]/gu;

export function words(normalised: string): string[] {
  return normalised.match(WORD) ?? [];
}

/**
 * Cue families: language-independent evidence the rules also look at, as features the model weighs.
 * Matched on the normalised text (lower case, digits as 0, links as urltok).
 */
const CUES: readonly (readonly [string, RegExp])[] = [
  [
    'promo',
    /\b(?:check (?:out )?(?:my|our|this|it)|my (?:new )?(?:channel|video|music|song|page|site|website|blog|profile)|subscrib|follow (?:me|us)|abonnier|abonnez|abonne-toi|ma chaîne|meinen kanal|visit (?:my|our)|like (?:and|&) (?:share|subscribe)|share (?:this|it))/,
  ],
  [
    'money',
    /[$€£]|\b(?:free|gratis|gratuit|kostenlos|win|won|winner|prize|cash|money|geld|argent|earn|verdien|gagne|income|offer|angebot|offre|discount|rabatt|promo|bonus|credit|loan|kredit|crédit)\b/,
  ],
  [
    'urgency',
    /\b(?:urgent|now|today|limited|immediately|expires?|hurry|last chance|sofort|jetzt|dringend|heute|maintenant|immédiatement|urgence|vite)\b/,
  ],
  [
    'action',
    /\b(?:click|klick|cliquez|call|txt|text|reply|order|buy|kaufen|bestellen|achetez|commandez|sign up|register|join|download|claim|visit|go to|besuche|visitez)\b/,
  ],
];

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

function hashString(text: string, seed: number): number {
  let hash = (FNV_OFFSET ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, FNV_PRIME);
  }
  return hash >>> 0;
}

function mix(hash: number): number {
  let h = hash ^ (hash >>> 16);
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const SEED_WORD = 1;
const SEED_BIGRAM = 2;
const SEED_TITLE = 3;
const SEED_SHAPE = 4;
const SEED_CUE = 5;
const SEED_GENRE = 6;
const GENRE_SALT = [0, 0x2545f491, 0x6a09e667];

/** The bucket of each genre's intercept token (index 1 short, 2 long), for the training script. */
export function genreTokenIndices(space: FeatureSpace): number[] {
  const mask = (1 << space.bits) - 1;
  return [0, 1, 2].map((genre) => mix(hashString(`genre:${genre}`, SEED_GENRE)) & mask);
}
const SEED_CHAR = [0, 0, 0, 0x3000, 0x4000, 0x5000, 0x6000];

/**
 * A small open-addressing map from bucket index to a Float32 value that remembers insertion order. The
 * scratch space of one text stays in the CPU cache, unlike arrays of 2^bits entries (the cost of a check
 * was mostly cache misses on those).
 */
class Accumulator {
  private readonly keys: Int32Array;
  readonly values: Float32Array;
  /** Slots in insertion order. */
  readonly order: Int32Array;
  count = 0;
  private readonly shift: number;
  private readonly slotMask: number;

  constructor(capacityBits: number) {
    this.keys = new Int32Array(1 << capacityBits).fill(-1);
    this.values = new Float32Array(1 << capacityBits);
    this.order = new Int32Array(1 << (capacityBits - 1));
    this.shift = 32 - capacityBits;
    this.slotMask = (1 << capacityBits) - 1;
  }

  /** The slot of a bucket index, created (value 0) when absent. */
  slot(index: number): number {
    let slot = Math.imul(index, 0x9e3779b1) >>> this.shift;
    for (;;) {
      const key = this.keys[slot] as number;
      if (key === index) return slot;
      if (key === -1) {
        this.keys[slot] = index;
        this.order[this.count++] = slot;
        return slot;
      }
      slot = (slot + 1) & this.slotMask;
    }
  }

  keyAt(slot: number): number {
    return this.keys[slot] as number;
  }

  clear(): void {
    for (let k = 0; k < this.count; k++) {
      const slot = this.order[k] as number;
      this.keys[slot] = -1;
      this.values[slot] = 0;
    }
    this.count = 0;
  }
}

/** Accumulates hashed counts into reusable scratch space; one per feature space. */
export class FeatureExtractor {
  private readonly mask: number;
  private readonly counts: Accumulator;
  private readonly block: Accumulator;
  private readonly v2: boolean;
  private readonly charMax: number;
  private readonly charLimit: number;
  private readonly textLimit: number;
  /** Genre of the text being extracted: 0 none, 1 short, 2 long. */
  private genre = 0;

  constructor(private readonly space: FeatureSpace) {
    const size = 1 << space.bits;
    this.mask = size - 1;
    this.v2 = (space.hash ?? 1) >= 2;
    this.charMax = Math.min(6, Math.max(3, space.charMax ?? 5));
    this.textLimit = Math.min(MODEL_TEXT_LIMIT, space.textLimit ?? MODEL_TEXT_LIMIT);
    this.charLimit = Math.min(this.textLimit, space.charLimit ?? MODEL_TEXT_LIMIT);
    // Upper bound of distinct features of one text: unigrams, bigrams and title words (3 per character of
    // the window), character n-grams, shape and cue tokens; the maps are kept at most half full.
    const distinct =
      (space.genreCopy ? 2 : 1) * (3 * this.textLimit + (this.charMax - 2) * (this.charLimit + 2) + 64);
    const capacityBits = Math.ceil(Math.log2(2 * distinct));
    this.counts = new Accumulator(capacityBits);
    this.block = new Accumulator(capacityBits);
  }

  extract(input: ModelInput): SparseVector {
    const v2 = this.v2;
    const limit = this.textLimit;
    const title = normaliseForModel(input.title, v2, limit);
    const body = normaliseForModel(input.body, v2, limit);
    const text = title === '' || this.space.titleInText === false ? body : `${title} ${body}`.slice(0, limit);
    const tokens = words(text);
    const genreLength = this.space.genreLength ?? 0;
    this.genre = genreLength > 0 ? (text.length < genreLength ? 1 : 2) : 0;
    const copy = this.genre === 0 ? 0 : (this.space.genreCopy ?? 0);

    if (v2) {
      let previous = 0;
      for (let i = 0; i < tokens.length; i++) {
        const hash = hashString(tokens[i] as string, SEED_WORD);
        this.addMixed(mix(hash));
        if (i > 0) this.addMixed(mix(Math.imul(previous, 0x9e3779b1) ^ hash ^ SEED_BIGRAM));
        previous = hash;
      }
    } else {
      for (let i = 0; i < tokens.length; i++) {
        const token = tokens[i] as string;
        this.add(hashString(token, SEED_WORD), 1);
        if (i > 0) this.add(hashString(`${tokens[i - 1] as string} ${token}`, SEED_BIGRAM), 1);
      }
    }
    const titleNorm = this.space.titleNorm;
    if (titleNorm !== undefined) this.flushBlock(this.space.wordNorm, (copy & 1) !== 0);
    for (const token of words(title)) this.add(hashString(token, SEED_TITLE), 1);
    this.flushBlock(titleNorm ?? this.space.wordNorm, (copy & 1) !== 0);

    if (this.space.charNorm > 0) {
      this.charGrams(text);
      this.flushBlock(this.space.charNorm, (copy & 2) !== 0);
    }

    for (const shape of shapeTokens(text, tokens)) this.add(hashString(shape, SEED_SHAPE), 1);
    this.flushBlock(this.space.shapeNorm, (copy & 4) !== 0);

    const cueNorm = this.space.cueNorm ?? 0;
    if (cueNorm > 0) {
      for (const cue of cueTokens(text, tokens)) this.add(hashString(cue, SEED_CUE), 1);
      this.flushBlock(cueNorm, (copy & 8) !== 0);
    }
    if (this.genre !== 0) {
      const slot = this.counts.slot(mix(hashString(`genre:${this.genre}`, SEED_GENRE)) & this.mask);
      this.counts.values[slot] = (this.counts.values[slot] as number) + 1;
    }
    return this.collect();
  }

  /** Character n-grams of the padded text, hashed incrementally over char codes (no substrings). */
  private charGrams(text: string): void {
    const limit = Math.min(text.length, this.charLimit) + 2;
    const charMax = this.charMax;
    const mask = this.mask;
    const block = this.block;
    const values = block.values;
    const v2 = this.v2;
    for (let i = 0; i + 3 <= limit; i++) {
      let hash = FNV_OFFSET;
      for (let n = 1; n <= charMax && i + n <= limit; n++) {
        const at = i + n - 1;
        hash ^= at === 0 || at === limit - 1 ? 32 : text.charCodeAt(at - 1);
        hash = Math.imul(hash, FNV_PRIME);
        if (n >= 3) {
          const seeded = hash ^ (SEED_CHAR[n] as number);
          const slot = block.slot((v2 ? mix(seeded) : mix(mix(seeded))) & mask);
          values[slot] = (values[slot] as number) + 1;
        }
      }
    }
  }

  private add(hash: number, count: number): void {
    const slot = this.block.slot(mix(hash) & this.mask);
    this.block.values[slot] = (this.block.values[slot] as number) + count;
  }

  private addMixed(mixed: number): void {
    const slot = this.block.slot(mixed & this.mask);
    this.block.values[slot] = (this.block.values[slot] as number) + 1;
  }

  /** Moves the current block into the result with sublinear counts, scaled to the given L2 norm. */
  private flushBlock(norm: number, copy = false): void {
    const block = this.block;
    const values = block.values;
    let squares = 0;
    for (let k = 0; k < block.count; k++) {
      const slot = block.order[k] as number;
      const value = Math.log1p(values[slot] as number);
      values[slot] = value;
      squares += value * value;
    }
    const scale = squares > 0 ? norm / Math.sqrt(squares) : 0;
    if (scale !== 0) {
      const counts = this.counts;
      for (let k = 0; k < block.count; k++) {
        const slot = block.order[k] as number;
        const target = counts.slot(block.keyAt(slot));
        counts.values[target] = (counts.values[target] as number) + (values[slot] as number) * scale;
        if (copy) {
          const copied = counts.slot(mix(block.keyAt(slot) ^ (GENRE_SALT[this.genre] as number)) & this.mask);
          counts.values[copied] = (counts.values[copied] as number) + (values[slot] as number) * scale;
        }
      }
    }
    block.clear();
  }

  private collect(): SparseVector {
    const counts = this.counts;
    const indices = new Int32Array(counts.count);
    for (let k = 0; k < counts.count; k++) indices[k] = counts.keyAt(counts.order[k] as number);
    indices.sort();
    const values = new Float32Array(indices.length);
    for (let k = 0; k < indices.length; k++)
      values[k] = counts.values[counts.slot(indices[k] as number)] as number;
    counts.clear();
    return { indices, values };
  }
}

function bucket(value: number): number {
  return value <= 0 ? 0 : Math.min(12, Math.floor(Math.log2(value + 1)));
}

function shapeTokens(text: string, tokens: string[]): string[] {
  let urls = 0;
  let emails = 0;
  let symbols = 0;
  for (const token of tokens) {
    if (token === 'urltok') urls++;
    else if (token === 'emailtok') emails++;
    else if (token.length === 1 && '!$€£%'.includes(token)) symbols++;
  }
  return [
    `urls:${Math.min(urls, 4)}`,
    `url-per-word:${tokens.length ? Math.min(5, Math.floor((20 * urls) / tokens.length)) : 0}`,
    `emails:${Math.min(emails, 3)}`,
    `symbols:${bucket(symbols)}`,
    `digits:${text.length ? Math.min(5, Math.floor((countZeros(text) * 20) / text.length)) : 0}`,
  ];
}

function cueTokens(text: string, tokens: string[]): string[] {
  const found: string[] = [];
  const links = tokens.includes('urltok');
  for (const [name, pattern] of CUES) {
    if (!pattern.test(text)) continue;
    found.push(`cue:${name}`);
    if (links) found.push(`cue:${name}+link`);
  }
  if (found.length === 0) found.push(links ? 'cue:none+link' : 'cue:none');
  else if (found.length >= 4) found.push('cue:many');
  return found;
}

function countZeros(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 48) count++;
  return count;
}
