import type { FeedbackLabel } from '@spam-check/contracts';
import { CUT_KEYS, cutSteps, cutsOf, type Calibration, type Cuts, type Thresholds } from './client-cuts';
import type { SparseVector } from './model/extractor';
import {
  bandKeys,
  decodeFingerprint,
  encodeFingerprint,
  nearDuplicates,
  similarity,
  type Fingerprint,
} from './near-duplicate';

/**
 * What one client's reports decide about texts, and what they teach (docs/design.md, Learning from reports).
 * The rules:
 * - a report holds the text's fingerprint (./near-duplicate.ts) and its label; the same text or a
 *   near-duplicate of it, checked again by that client, gets the label (the most similar report wins);
 * - each report also trains the client's adjustment: a sparse linear correction on the model's own hashed
 *   features, added to the model's margin before calibration. One passive-aggressive step (PA-I, Crammer et
 *   al. 2006) per report: when the reported text is not yet beyond its label's target margin, the weights of
 *   its strongest LEARNT_FEATURES features move just enough to reach it, at most AGGRESSIVENESS per unit of
 *   squared norm; a text already on the right side changes nothing;
 * - the correction lifts a text to `suspicious` freely, to `spam` only on the balance of the client's reports
 *   (`adjustment`: `lift` for every cut, `spamLift` for the spam cut). Each weight counts the spam and the ham
 *   reports that stepped it; a positive term counts towards the spam cut only when its feature has at least
 *   SPAM_EVIDENCE.backing times as many spam reports as ham reports (a word that the client's reported ham
 *   carries too is no evidence of spam), and what counts lifts a text towards the spam cut by at most
 *   SPAM_EVIDENCE.maxLift: a text the model scores far below `spam` gets there for the client by a
 *   near-duplicate report, not by the correction;
 * - a check reads a bounded part of what the client learnt, never the whole of it: the reports indexed under
 *   the LSH bands of its own fingerprint (at most BAND_ENTRIES per band), and the weights of its strongest
 *   LOOKED_UP_FEATURES features. The cost of a check does not grow with the client's reports;
 * - memory per client is bounded: at most `maxReports` reports and `maxWeights` weights, the oldest written
 *   going first; a band index entry of a report that went no longer counts (the report is looked up);
 * - a test fixture or an operator-listed text teaches nothing (its verdict is fixed before reports count).
 */

/** Features of a check kept for learning: its strongest ones, by absolute value. */
const LEARNT_FEATURES = 128;
/** Features of a checked text whose weights are read: its strongest ones (a longer text has more). */
const LOOKED_UP_FEATURES = 512;
/** Reports kept in the index of one LSH band of one client (the newest). */
const BAND_ENTRIES = 8;
const AGGRESSIVENESS = 4;
/**
 * What of the correction counts towards the spam cut: a feature's weight only with `backing` spam reports per
 * ham report (and one), and at most `maxLift` margin units of it in all.
 */
const SPAM_EVIDENCE = { backing: 2, maxLift: 3 } as const;
/**
 * Target probabilities a report pushes its text to, at the default thresholds (0.8 and 0.5); with the
 * client's learnt cuts (./client-cuts.ts) the targets move with them.
 */
const TARGET = { spam: 0.85, ham: 0.3 } as const;
/** The weight keys a report and a check read besides the features: the client's cut offsets. */
const RESERVED_KEYS = [String(CUT_KEYS.spam), String(CUT_KEYS.suspicious)];

/** What a check of a text keeps so that a report on it can be learnt later. */
export interface Learnable {
  fingerprint: Fingerprint;
  /** The strongest features of the text (what the adjustment learns on). */
  features: SparseVector;
  /** The model's margin of the whole text, without any adjustment. */
  margin: number;
  language: string | null;
  /**
   * The text as the model reads it (canonical: case folded, links, e-mail addresses and digits replaced by
   * placeholders, at most EXPORTED_CHARACTERS), for `feedback export` only.
   */
  text: { title: string; body: string };
}

export const EXPORTED_CHARACTERS = 1000;

export function strongestFeatures(vector: SparseVector, count = LEARNT_FEATURES): SparseVector {
  const size = vector.indices.length;
  if (size <= count) return vector;
  const magnitudes = new Float32Array(size);
  for (let k = 0; k < size; k++) magnitudes[k] = Math.abs(vector.values[k] as number);
  const threshold = nthSmallest(magnitudes, size - count);
  const indices = new Int32Array(count);
  const values = new Float32Array(count);
  let kept = 0;
  for (let k = 0; k < size && kept < count; k++) {
    if (Math.abs(vector.values[k] as number) < threshold) continue;
    indices[kept] = vector.indices[k] as number;
    values[kept++] = vector.values[k] as number;
  }
  return { indices, values };
}

/**
 * The value that would stand at index `n` of `numbers` sorted ascending (Hoare's selection: linear on
 * average, where sorting a check's thousands of features would cost more than the rest of its learning).
 * Reorders `numbers`.
 */
function nthSmallest(numbers: Float32Array, n: number): number {
  let low = 0;
  let high = numbers.length - 1;
  while (low < high) {
    const pivot = numbers[(low + high) >>> 1] as number;
    let i = low;
    let j = high;
    while (i <= j) {
      while ((numbers[i] as number) < pivot) i++;
      while ((numbers[j] as number) > pivot) j--;
      if (i <= j) {
        const swapped = numbers[i] as number;
        numbers[i++] = numbers[j] as number;
        numbers[j--] = swapped;
      }
    }
    if (n <= j) high = j;
    else if (n >= i) low = i;
    else break;
  }
  return numbers[n] as number;
}

/** A learnt weight of a feature, and how many spam and ham reports stepped it. */
export interface LearntWeight {
  value: number;
  spamReports: number;
  hamReports: number;
}

/** The client's correction of a text's margin: `lift` for every cut, `spamLift` for the `spam` cut. */
export interface Correction {
  lift: number;
  spamLift: number;
}

/** The client's correction of a text; what counts towards the spam cut is decided here (rules on top). */
export function adjustment(weights: ReadonlyMap<number, LearntWeight>, vector: SparseVector): Correction {
  let lift = 0;
  let spamLift = 0;
  if (weights.size === 0) return { lift, spamLift };
  for (let k = 0; k < vector.indices.length; k++) {
    const weight = weights.get(vector.indices[k] as number);
    if (weight === undefined) continue;
    const term = weight.value * (vector.values[k] as number);
    lift += term;
    const backed = weight.spamReports >= Math.max(1, SPAM_EVIDENCE.backing * weight.hamReports);
    if (term <= 0 || backed) spamLift += term;
  }
  return { lift, spamLift: Math.min(spamLift, SPAM_EVIDENCE.maxLift) };
}

/** A weight as stored: its value, then its spam and ham reports when it has any (cut offsets have none). */
function encodeWeight({ value, spamReports, hamReports }: LearntWeight): string {
  return spamReports + hamReports > 0 ? `${value} ${spamReports} ${hamReports}` : String(value);
}

function decodeWeight(text: string): LearntWeight {
  const [value, spamReports, hamReports] = text.split(' ');
  return { value: Number(value), spamReports: Number(spamReports ?? 0), hamReports: Number(hamReports ?? 0) };
}

/** What a check reads of a client's learnt state: the index entries of its bands and its features' weights. */
export function lookupKeys(learnable: Pick<Learnable, 'fingerprint'>, vector: SparseVector) {
  return {
    bands: bandKeys(learnable.fingerprint.signature),
    features: weightKeys(strongestFeatures(vector, LOOKED_UP_FEATURES)),
  };
}

/** The weight keys of `features`: their indices as strings, then the cut offsets. */
function weightKeys(features: SparseVector): string[] {
  const keys: string[] = [];
  for (const index of features.indices) keys.push(String(index));
  keys.push(...RESERVED_KEYS);
  return keys;
}

/**
 * The reports among the band index entries that are near-duplicates of the fingerprint, most similar first
 * (their keys, to look their labels up: an entry may have outlived its report).
 */
export function nearReports(fingerprint: Fingerprint, entries: readonly (string | undefined)[]): string[] {
  const found = new Map<string, number>();
  for (const entry of entries) {
    for (const key of entry?.split(' ') ?? []) {
      if (key === '' || found.has(key)) continue;
      const other = decodeFingerprint(key);
      if (nearDuplicates(other, fingerprint))
        found.set(key, similarity(other.signature, fingerprint.signature));
    }
  }
  return [...found].sort((a, b) => b[1] - a[1]).map(([key]) => key);
}

/** The key a report is stored under: the same fingerprint reported again replaces the earlier label. */
export function reportKeyOf(fingerprint: Fingerprint): string {
  return encodeFingerprint(fingerprint);
}

/** The band index entries with this report added (newest first, at most BAND_ENTRIES per band). */
export function indexedUnder(
  fingerprint: Fingerprint,
  current: readonly (string | undefined)[],
): [string, string][] {
  const key = reportKeyOf(fingerprint);
  return bandKeys(fingerprint.signature).map((band, index) => {
    const others = (current[index]?.split(' ') ?? []).filter((entry) => entry !== '' && entry !== key);
    return [band, [key, ...others].slice(0, BAND_ENTRIES).join(' ')];
  });
}

/** The weight keys a report on `learnable` reads and may write: its features', then the cut offsets. */
export function learntKeys(learnable: Pick<Learnable, 'features'>): string[] {
  return weightKeys(learnable.features);
}

/**
 * The weights a report writes, from their current values (`current`, in the order of `learntKeys`): the
 * client's cut offsets when the text is on the wrong side of a cut now (./client-cuts.ts), and, when the text
 * is not yet beyond its label's target (relative to the client's cuts; for `spam`, by the part of the
 * correction that counts for `spam`), one PA-I step on the text's strongest features, a spam report also
 * counting itself on each of them.
 */
export function learningStep(
  learnable: Learnable,
  current: readonly (string | undefined)[],
  label: FeedbackLabel,
  calibration: Calibration,
  thresholds: Thresholds,
): [string, string][] {
  const { features, language } = learnable;
  const weights = weightsOf(learntKeys(learnable), current);
  const cuts = cutsOf(weights);
  const correction = adjustment(weights, features);
  const margins = {
    suspicious: learnable.margin + correction.lift,
    spam: learnable.margin + correction.spamLift,
  };
  const moved = cutSteps(margins, label, cuts, thresholds, calibration, language);
  // Written again with every step, so that the cap (oldest written first) never drops them before the weights.
  const cutEntries = ({ spam, suspicious }: Cuts): [string, string][] => [
    [String(CUT_KEYS.spam), String(spam)],
    [String(CUT_KEYS.suspicious), String(suspicious)],
  ];
  const written = moved ? cutEntries(moved) : [];
  const target =
    calibration.marginFor(TARGET[label], language) + (label === 'spam' ? cuts.spam : cuts.suspicious);
  const norm = features.values.reduce((sum, value) => sum + value ** 2, 0);
  const missing = label === 'spam' ? target - margins.spam : margins.suspicious - target;
  if (missing <= 0 || norm === 0) return written;
  // A spam text that the whole correction already lifts beyond the target only needs its reports counted.
  const gap = label === 'spam' ? Math.max(0, target - margins.suspicious) : missing;
  const step = Math.min(AGGRESSIVENESS, gap / norm) * (label === 'spam' ? 1 : -1);
  return [
    ...[...features.indices].map((index, k): [string, string] => {
      const { value, spamReports, hamReports } = weights.get(index) ?? {
        value: 0,
        spamReports: 0,
        hamReports: 0,
      };
      const next = {
        value: value + step * (features.values[k] as number),
        spamReports: spamReports + (label === 'spam' ? 1 : 0),
        hamReports: hamReports + (label === 'ham' ? 1 : 0),
      };
      return [String(index), encodeWeight(next)];
    }),
    ...cutEntries(moved ?? cuts),
  ];
}

/** The weights read for a check, by feature index (and the cut offsets, under their reserved keys). */
export function weightsOf(
  keys: readonly string[],
  values: readonly (string | undefined)[],
): Map<number, LearntWeight> {
  const weights = new Map<number, LearntWeight>();
  values.forEach((value, k) => {
    if (value !== undefined) weights.set(Number(keys[k]), decodeWeight(value));
  });
  return weights;
}

/** A learnable as stored with a check: JSON with the vectors in base64. */
export function encodeLearnable(learnable: Learnable): string {
  const { indices, values } = learnable.features;
  return JSON.stringify({
    f: encodeFingerprint(learnable.fingerprint),
    i: Buffer.from(indices.buffer, indices.byteOffset, indices.byteLength).toString('base64'),
    v: Buffer.from(values.buffer, values.byteOffset, values.byteLength).toString('base64'),
    m: learnable.margin,
    l: learnable.language,
    t: learnable.text,
  });
}

export function decodeLearnable(text: string): Learnable {
  const raw = JSON.parse(text) as {
    f: string;
    i: string;
    v: string;
    m: number;
    l: string | null;
    t: Learnable['text'];
  };
  const indices = Buffer.from(raw.i, 'base64');
  const values = Buffer.from(raw.v, 'base64');
  return {
    fingerprint: decodeFingerprint(raw.f),
    features: {
      indices: new Int32Array(indices.buffer.slice(indices.byteOffset, indices.byteOffset + indices.length)),
      values: new Float32Array(values.buffer.slice(values.byteOffset, values.byteOffset + values.length)),
    },
    margin: raw.m,
    language: raw.l,
    text: raw.t,
  };
}
