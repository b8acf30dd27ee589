/**
 * Feature extraction of the local model, shared by the training script and the service so both see exactly
 * the same numbers. Rules it enforces:
 * - case, Unicode form, zero-width characters and the spacing around punctuation are erased, because the
 *   training sources differ in exactly those (Enron is lower-cased and tokenised with spaces, the others raw);
 * - URLs, e-mail addresses and digits become placeholders, so the model learns "has a link", not the link;
 * - only the first MODEL_TEXT_LIMIT characters of normalised text count, which bounds the cost per check;
 * - features are hashed (no vocabulary to ship): word unigrams and bigrams, title words, character 3- to
 *   5-grams and a few coarse shape tokens; each block is L2-normalised so long and short texts are comparable.
 */

export const MODEL_TEXT_LIMIT = 4000;
const RAW_LIMIT = 3 * MODEL_TEXT_LIMIT;

export interface SparseVector {
  indices: Int32Array;
  values: Float32Array;
}

export interface FeatureSpace {
  /** log2 of the number of hash buckets. */
  bits: number;
  /** L2 norm of each block: words (unigrams, bigrams, title words), character n-grams, shape tokens. */
  wordNorm: number;
  charNorm: number;
  shapeNorm: number;
}

export interface ModelInput {
  title: string;
  body: string;
}

const INVISIBLE = /[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]/g;
const WHITESPACE = /\s+/g;
const SPACE_AROUND_PUNCTUATION = / ?([^\p{L}\p{N}\s]) ?/gu;
const DIGIT = /\p{Nd}/gu;

/** The canonical form the model sees; also used to tokenise. */
export function normaliseForModel(text: string): string {
  const lowered = text.slice(0, RAW_LIMIT).normalize('NFKC').toLowerCase().replace(INVISIBLE, '');
  const chunks = lowered.replace(WHITESPACE, ' ').replace(SPACE_AROUND_PUNCTUATION, '$1').split(' ');
  const out: string[] = [];
  for (const chunk of chunks) {
    if (chunk === '') continue;
    out.push(placeholder(chunk) ?? chunk.replace(DIGIT, '0'));
  }
  return out.join(' ').slice(0, MODEL_TEXT_LIMIT);
}

function placeholder(chunk: string): string | undefined {
  if (chunk.includes('://') || chunk.startsWith('www.') || chunk.includes('.www.')) return 'urltok';
  const at = chunk.indexOf('@');
  if (at > 0 && chunk.indexOf('.', at) > at + 1) return 'emailtok';
  return undefined;
}

const WORD = /[\p{L}\p{N}]+|[!?$€£%*]/gu;

export function words(normalised: string): string[] {
  return normalised.match(WORD) ?? [];
}

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
const SEED_CHAR = [0, 0, 0, 0x3000, 0x4000, 0x5000];

/** Accumulates hashed counts into a reusable scratch buffer; one per feature space. */
export class FeatureExtractor {
  private readonly mask: number;
  private readonly counts: Float32Array;
  private readonly touched: Int32Array;
  private touchedCount = 0;
  private readonly block: Float32Array;
  private readonly blockTouched: Int32Array;
  private blockCount = 0;

  constructor(private readonly space: FeatureSpace) {
    const size = 1 << space.bits;
    this.mask = size - 1;
    this.counts = new Float32Array(size);
    this.block = new Float32Array(size);
    // Upper bound of distinct features of one text: 3 word features and 3 character n-grams per character.
    this.touched = new Int32Array(8 * MODEL_TEXT_LIMIT + 4096);
    this.blockTouched = new Int32Array(8 * MODEL_TEXT_LIMIT + 4096);
  }

  extract(input: ModelInput): SparseVector {
    const title = normaliseForModel(input.title);
    const body = normaliseForModel(input.body);
    const text = title === '' ? body : `${title} ${body}`.slice(0, MODEL_TEXT_LIMIT);
    const tokens = words(text);

    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i] as string;
      this.add(hashString(token, SEED_WORD), 1);
      if (i > 0) this.add(hashString(`${tokens[i - 1] as string} ${token}`, SEED_BIGRAM), 1);
    }
    for (const token of words(title)) this.add(hashString(token, SEED_TITLE), 1);
    this.flushBlock(this.space.wordNorm);

    const padded = ` ${text} `;
    for (let i = 0; i + 3 <= padded.length; i++) {
      let hash = FNV_OFFSET;
      for (let n = 1; n <= 5 && i + n <= padded.length; n++) {
        hash ^= padded.charCodeAt(i + n - 1);
        hash = Math.imul(hash, FNV_PRIME);
        if (n >= 3) this.add(mix(hash ^ (SEED_CHAR[n] as number)), 1);
      }
    }
    this.flushBlock(this.space.charNorm);

    for (const shape of shapeTokens(text, tokens)) this.add(hashString(shape, SEED_SHAPE), 1);
    this.flushBlock(this.space.shapeNorm);

    return this.collect();
  }

  private add(hash: number, count: number): void {
    const index = mix(hash) & this.mask;
    if (this.block[index] === 0) this.blockTouched[this.blockCount++] = index;
    this.block[index] = (this.block[index] as number) + count;
  }

  /** Moves the current block into the result with sublinear counts, scaled to the given L2 norm. */
  private flushBlock(norm: number): void {
    let squares = 0;
    for (let k = 0; k < this.blockCount; k++) {
      const index = this.blockTouched[k] as number;
      const value = Math.log1p(this.block[index] as number);
      this.block[index] = value;
      squares += value * value;
    }
    const scale = squares > 0 ? norm / Math.sqrt(squares) : 0;
    for (let k = 0; k < this.blockCount; k++) {
      const index = this.blockTouched[k] as number;
      if (this.counts[index] === 0) this.touched[this.touchedCount++] = index;
      this.counts[index] = (this.counts[index] as number) + (this.block[index] as number) * scale;
      this.block[index] = 0;
    }
    this.blockCount = 0;
  }

  private collect(): SparseVector {
    const indices = this.touched.slice(0, this.touchedCount).sort();
    const values = new Float32Array(indices.length);
    for (let k = 0; k < indices.length; k++) {
      const index = indices[k] as number;
      values[k] = this.counts[index] as number;
      this.counts[index] = 0;
    }
    this.touchedCount = 0;
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

function countZeros(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 48) count++;
  return count;
}
