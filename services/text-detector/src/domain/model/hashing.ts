/** Feature hashing: FNV-1a over UTF-16 code units, then a murmur3 finaliser to spread the buckets. */

export const FNV_OFFSET = 0x811c9dc5;
export const FNV_PRIME = 0x01000193;

export function hashString(text: string, seed: number): number {
  let hash = (FNV_OFFSET ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, FNV_PRIME);
  }
  return hash >>> 0;
}

export function mix(hash: number): number {
  let h = hash ^ (hash >>> 16);
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** One seed per feature family, so a word, a title word and a shape token never share a bucket by design. */
export const SEED = { word: 1, bigram: 2, title: 3, shape: 4, cue: 5, rule: 7, form: 8 } as const;
/** Seeds of the character n-grams, by length. */
export const CHAR_SEED = [0, 0, 0, 0x3000, 0x4000, 0x5000, 0x6000] as const;
