import { Accumulator } from './accumulator';
import { MODEL_TEXT_LIMIT, normaliseForModel, words } from './canonical';
import { SUPPORT_LIST, praiseTokens, supportTokens } from './comment-patterns';
import { CUES } from './cues';
import { authorTokens, genreTokens, type FormView } from './form';
import * as hashing from './hashing';
import { linkNaming } from './link-names';
import { OFFER_LISTS, OFFER_PREFIX } from './offers';
import { PhraseMatcher } from './triggers';

// Read once: under a module loader that exports through getters (tsx, jest) each use in the loops below
// would otherwise be a getter call (a tenth of a check's time).
const { CHAR_SEED, FNV_OFFSET, FNV_PRIME, SEED, hashString, mix } = hashing;

/**
 * The version of what this extractor makes of a text. Bump it with any change that changes the features of
 * some text (here, canonical.ts, cues.ts, hashing.ts, link-names.ts, accumulator.ts, or the normalisation the
 * service does before): a model file records the version it was trained with, and the service refuses a
 * model made for another (./provenance.ts).
 */
export const EXTRACTOR_VERSION = 2;

/**
 * The model's features, shared by the training script and the service so both see exactly the same
 * numbers: hashed word unigrams and bigrams plus title words, character 3..charMax-grams of the first
 * charLimit characters, a few coarse shape tokens (with whether the linked sites are named in the text,
 * ./link-names.ts), the cue tokens (./cues.ts, ./offers.ts, ./comment-patterns.ts) and, when the check
 * names its form, the genre and author tokens (./form.ts). Each block is counted with
 * log(1 + count) and L2-normalised to its norm, so long and short texts are comparable. The rule findings
 * come last, one feature per reason code with the finding's weight as its value, so the model learns how
 * much each rule is worth next to the words (a t.co link in a tweet is not what it is in an SMS).
 */
export interface FeatureSpace {
  /** log2 of the number of hash buckets. */
  bits: number;
  wordNorm: number;
  charNorm: number;
  shapeNorm: number;
  cueNorm: number;
  /** Norm of the genre and author tokens (./form.ts). */
  formNorm: number;
  charMax: number;
  charLimit: number;
  /** Canonical characters (title and body) the model reads, at most MODEL_TEXT_LIMIT. */
  textLimit: number;
}

export interface SparseVector {
  indices: Int32Array;
  values: Float32Array;
}

export interface ModelInput {
  title: string;
  body: string;
  /** The rule findings (../rules): each is a feature whose value is the finding's weight. */
  findings?: readonly { code: string; weight: number }[];
  /** The form the text came with, when the check names it. */
  form?: FormView | undefined;
}

export interface Extracted {
  vector: SparseVector;
  /** Bucket of each word unigram of the text, in order (what the familiarity check counts). */
  wordBuckets: Int32Array;
}

/** Accumulates hashed counts into reusable scratch space; one per feature space. */
export class FeatureExtractor {
  private readonly mask: number;
  private readonly counts: Accumulator;
  private readonly block: Accumulator;
  private readonly charMax: number;
  private readonly charLimit: number;
  private readonly textLimit: number;

  constructor(private readonly space: FeatureSpace) {
    this.mask = (1 << space.bits) - 1;
    this.charMax = Math.min(6, Math.max(3, space.charMax));
    this.textLimit = Math.min(MODEL_TEXT_LIMIT, space.textLimit);
    this.charLimit = Math.min(this.textLimit, space.charLimit);
    // Upper bound of distinct features of one text: unigrams, bigrams and title words (3 per character of
    // the window), character n-grams, shape and cue tokens; the maps are kept at most half full.
    const distinct = 3 * this.textLimit + (this.charMax - 2) * (this.charLimit + 2) + 64;
    const capacityBits = Math.ceil(Math.log2(2 * distinct));
    this.counts = new Accumulator(capacityBits);
    this.block = new Accumulator(capacityBits);
  }

  extract(input: ModelInput): Extracted {
    const limit = this.textLimit;
    const hosts: string[] = [];
    const title = normaliseForModel(input.title, limit, hosts);
    const body = normaliseForModel(input.body, limit, hosts);
    const text = title === '' ? body : `${title} ${body}`.slice(0, limit);
    const tokens = words(text);

    const wordBuckets = new Int32Array(tokens.length);
    let previous = 0;
    for (let i = 0; i < tokens.length; i++) {
      const hash = hashString(tokens[i] as string, SEED.word);
      const bucket = mix(hash) & this.mask;
      wordBuckets[i] = bucket;
      this.block.add(bucket, 1);
      if (i > 0) this.block.add(mix(Math.imul(previous, 0x9e3779b1) ^ hash ^ SEED.bigram) & this.mask, 1);
      previous = hash;
    }
    for (const token of words(title)) this.addHashed(hashString(token, SEED.title));
    this.flushBlock(this.space.wordNorm);

    this.charGrams(text);
    this.flushBlock(this.space.charNorm);

    for (const shape of shapeTokens(text, tokens)) this.addHashed(hashString(shape, SEED.shape));
    const naming = linkNaming(hosts, tokens);
    if (naming !== undefined) this.addHashed(hashString(`links-named:${naming}`, SEED.shape));
    this.flushBlock(this.space.shapeNorm);

    const cues = cueTokens(text, tokens);
    for (const cue of cues) this.addHashed(hashString(cue, SEED.cue));
    this.flushBlock(this.space.cueNorm);

    if (input.form !== undefined) {
      const evidence = [...cues, ...(input.findings ?? []).map((finding) => finding.code)];
      for (const token of genreTokens(input.form, evidence)) this.addHashed(hashString(token, SEED.form));
      for (const token of authorTokens(input.form)) this.addHashed(hashString(token, SEED.form));
      this.flushBlock(this.space.formNorm);
    }

    for (const finding of input.findings ?? [])
      this.counts.add(mix(hashString(finding.code, SEED.rule)) & this.mask, finding.weight);
    return { vector: this.collect(), wordBuckets };
  }

  /** Character n-grams of the padded text, hashed incrementally over char codes (no substrings). */
  private charGrams(text: string): void {
    const limit = Math.min(text.length, this.charLimit) + 2;
    const charMax = this.charMax;
    const mask = this.mask;
    const block = this.block;
    for (let i = 0; i + 3 <= limit; i++) {
      let hash = FNV_OFFSET;
      for (let n = 1; n <= charMax && i + n <= limit; n++) {
        const at = i + n - 1;
        hash ^= at === 0 || at === limit - 1 ? 32 : text.charCodeAt(at - 1);
        hash = Math.imul(hash, FNV_PRIME);
        if (n >= 3) block.add(mix(hash ^ (CHAR_SEED[n] as number)) & mask, 1);
      }
    }
  }

  private addHashed(hash: number): void {
    this.block.add(mix(hash) & this.mask, 1);
  }

  /** Moves the current block into the result with sublinear counts, scaled to the given L2 norm. */
  private flushBlock(norm: number): void {
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
      for (let k = 0; k < block.count; k++) {
        const slot = block.order[k] as number;
        this.counts.add(block.keyAt(slot), (values[slot] as number) * scale);
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

/** Every phrase list the cue tokens come from, matched in one pass over the words (./triggers.ts). */
const PHRASES = new PhraseMatcher([...CUES, ...OFFER_LISTS, SUPPORT_LIST]);

function cueTokens(text: string, tokens: string[]): string[] {
  const found: string[] = [];
  const links = tokens.includes('urltok');
  const offers: string[] = [];
  let support = false;
  for (const name of PHRASES.matches(text, tokens)) {
    if (name.startsWith(OFFER_PREFIX)) offers.push(name);
    else if (name === SUPPORT_LIST.name) support = true;
    else {
      found.push(`cue:${name}`);
      if (links) found.push(`cue:${name}+link`);
    }
  }
  if (found.length === 0) found.push(links ? 'cue:none+link' : 'cue:none');
  else if (found.length >= 4) found.push('cue:many');
  found.push(...offers, ...supportTokens(text, tokens, support), ...praiseTokens(text, offers));
  return found;
}

function countZeros(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 48) count++;
  return count;
}
