import { normaliseForModel } from './model/canonical';
import { FNV_OFFSET, FNV_PRIME, mix } from './model/hashing';

/**
 * Near-duplicates: MinHash over the character 5-grams of the canonical text (./model/canonical.ts, where
 * links, e-mail addresses and digits are already placeholders, case and spacing erased). Two texts are
 * near-duplicates when the share of equal MinHash values (an estimate of the Jaccard similarity of their
 * 5-gram sets) is at least NEAR_DUPLICATE_SIMILARITY: the same campaign with other links, numbers, names or
 * whitespace (`nearDuplicates`). Candidates are found by locality-sensitive hashing: 16 bands of 4 values; a pair at
 * similarity 0.6 shares a band with probability 0.89, at 0.7 with 0.99. The threshold was chosen on the
 * corpora with scripts/near-duplicates.ts (figures in the text detector's README, "Feedback").
 */
const SIGNATURE_SIZE = 64;
export const BANDS = 16;
const ROWS = SIGNATURE_SIZE / BANDS;
const SHINGLE = 5;
const NEAR_DUPLICATE_SIMILARITY = 0.6;
/**
 * A body shorter than this (canonical characters) is too short to tell a campaign from a chance: the title
 * (often the page's, the same for every comment) and a link placeholder would make "Omg" and "LIKE AND
 * SUBSCRIBE" under one video near-duplicates. Such a text only matches the same canonical text.
 */
const MIN_NEAR_BODY = 40;
/** Only the start of a long text is compared: campaigns differ little there, and the cost stays bounded. */
const COMPARED_CHARACTERS = 1000;
const BIN_BITS = 6;
/** Bin values are below 2^31; borrowed ones have the top bit set, so they never equal an own value. */
const EMPTY = 0xffffffff;

export type Signature = Uint32Array;

/** What is compared of a text: the signature of its canonical title and body, and whether it is short. */
export interface Fingerprint {
  signature: Signature;
  short: boolean;
}

export function fingerprintOf(title: string, body: string): Fingerprint {
  return {
    signature: signatureOf(normaliseForModel(`${title}\n${body}`, COMPARED_CHARACTERS)),
    short: normaliseForModel(body, MIN_NEAR_BODY).length < MIN_NEAR_BODY,
  };
}

export function nearDuplicates(a: Fingerprint, b: Fingerprint): boolean {
  const value = similarity(a.signature, b.signature);
  return a.short || b.short ? value === 1 : value >= NEAR_DUPLICATE_SIMILARITY;
}

/**
 * One-permutation MinHash with densification (Shrivastava 2017): each 5-gram is hashed once (rolling FNV
 * over the characters, no substrings), the top bits pick its bin, and each bin keeps its smallest value;
 * an empty bin borrows from the next full one. One hash per 5-gram instead of one per 5-gram and bin.
 */
function signatureOf(canonical: string): Signature {
  const minima = new Uint32Array(SIGNATURE_SIZE).fill(EMPTY);
  const length = canonical.length;
  for (let i = 0; i + SHINGLE <= length || i === 0; i++) {
    let hash = FNV_OFFSET;
    for (let n = 0; n < SHINGLE && i + n < length; n++) {
      hash ^= canonical.charCodeAt(i + n);
      hash = Math.imul(hash, FNV_PRIME);
    }
    const value = mix(hash >>> 0);
    const bin = value >>> (32 - BIN_BITS);
    const rest = mix(value ^ 0x5bd1e995) >>> 1;
    if (rest < (minima[bin] as number)) minima[bin] = rest;
    if (length < SHINGLE) break;
  }
  for (let k = 0; k < SIGNATURE_SIZE; k++) {
    if (minima[k] !== EMPTY) continue;
    for (let step = 1; step < SIGNATURE_SIZE; step++) {
      const donor = minima[(k + step) % SIGNATURE_SIZE] as number;
      if (donor !== EMPTY && donor < EMPTY) {
        minima[k] = (mix(donor ^ Math.imul(step, 0x9e3779b1)) >>> 1) | 0x80000000;
        break;
      }
    }
  }
  return minima;
}

export function similarity(a: Signature, b: Signature): number {
  let equal = 0;
  for (let k = 0; k < SIGNATURE_SIZE; k++) if (a[k] === b[k]) equal++;
  return equal / SIGNATURE_SIZE;
}

/** The LSH keys of a signature, one per band. */
export function bandKeys(signature: Signature): string[] {
  const keys: string[] = [];
  for (let band = 0; band < BANDS; band++) {
    let hash = band;
    for (let row = 0; row < ROWS; row++) hash = mix(hash ^ (signature[band * ROWS + row] as number));
    keys.push(`${band}:${hash.toString(36)}`);
  }
  return keys;
}

/** `s` or `l` (short or long), then the signature in base64 (little-endian). */
export function encodeFingerprint({ signature, short }: Fingerprint): string {
  const bytes = Buffer.alloc(SIGNATURE_SIZE * 4);
  for (let k = 0; k < SIGNATURE_SIZE; k++) bytes.writeUInt32LE(signature[k] as number, 4 * k);
  return (short ? 's' : 'l') + bytes.toString('base64');
}

export function decodeFingerprint(text: string): Fingerprint {
  const bytes = Buffer.from(text.slice(1), 'base64');
  if (bytes.length !== SIGNATURE_SIZE * 4) throw new Error('not a text fingerprint');
  const signature = new Uint32Array(SIGNATURE_SIZE);
  for (let k = 0; k < SIGNATURE_SIZE; k++) signature[k] = bytes.readUInt32LE(4 * k);
  return { signature, short: text.startsWith('s') };
}
