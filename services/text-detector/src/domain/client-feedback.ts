import type { FeedbackLabel } from '@spam-check/contracts';
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
 * What one client's reports decide about texts, and what they teach (DESIGN.md §6.1). The rules:
 * - a report holds the text's fingerprint (./near-duplicate.ts) and its label; the same text or a
 *   near-duplicate of it, checked again by that client, gets the label (the most similar report wins);
 * - each report also trains the client's adjustment: a sparse linear correction on the model's own hashed
 *   features, added to the model's margin before calibration. One passive-aggressive step (PA-I, Crammer et
 *   al. 2006) per report: when the reported text is not yet beyond its label's target margin, the weights of
 *   its strongest LEARNT_FEATURES features move just enough to reach it, at most AGGRESSIVENESS per unit of
 *   squared norm; a text already on the right side changes nothing;
 * - memory per client is bounded: at most `maxReports` reports (the oldest goes) and `maxWeights` nonzero
 *   weights (the smallest go);
 * - a test fixture or an operator-listed text teaches nothing (its verdict is fixed before reports count).
 */

/** Features of a check kept for learning: its strongest ones, by absolute value. */
const LEARNT_FEATURES = 128;
const AGGRESSIVENESS = 4;
/** Target probabilities a report pushes its text to (the verdict thresholds are 0.8 and 0.5 by default). */
const TARGET = { spam: 0.85, ham: 0.3 } as const;

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

/** The calibration of the model: margin → probability for a language, and back. */
export interface Calibration {
  calibrate(margin: number, language: string | null): number;
  marginFor(probability: number, language: string | null): number;
}

export interface ClientReport {
  key: string;
  label: FeedbackLabel;
  fingerprint: Fingerprint;
}

/** A client's reports and adjustment, indexed for checks. */
export interface ClientState {
  reports: ClientReport[];
  bands: Map<string, number[]>;
  weights: Map<number, number>;
}

export function strongestFeatures(vector: SparseVector, count = LEARNT_FEATURES): SparseVector {
  const size = vector.indices.length;
  if (size <= count) return vector;
  const magnitudes = Float32Array.from(vector.values, Math.abs).sort();
  const threshold = magnitudes[size - count] as number;
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

export function adjustment(weights: ReadonlyMap<number, number>, vector: SparseVector): number {
  if (weights.size === 0) return 0;
  let sum = 0;
  for (let k = 0; k < vector.indices.length; k++) {
    const weight = weights.get(vector.indices[k] as number);
    if (weight !== undefined) sum += weight * (vector.values[k] as number);
  }
  return sum;
}

export function reportedLabel(state: ClientState, fingerprint: Fingerprint): FeedbackLabel | undefined {
  let best: ClientReport | undefined;
  let bestSimilarity = -1;
  for (const key of bandKeys(fingerprint.signature)) {
    for (const index of state.bands.get(key) ?? []) {
      const report = state.reports[index] as ClientReport;
      if (!nearDuplicates(report.fingerprint, fingerprint)) continue;
      const value = similarity(report.fingerprint.signature, fingerprint.signature);
      if (value >= bestSimilarity) {
        best = report;
        bestSimilarity = value;
      }
    }
  }
  return best?.label;
}

/** What a report changes: entries to write and to delete in the client's store. */
export interface StateChange {
  write: [string, string][];
  remove: string[];
}

const REPORT_PREFIX = 'r:';
const WEIGHT_PREFIX = 'w:';

/** The key a report is stored under: the same fingerprint reported again replaces the earlier label. */
export function reportKeyOf(fingerprint: Fingerprint): string {
  return REPORT_PREFIX + encodeFingerprint(fingerprint);
}

/** A report and its learning step, against the current state of the client. */
export function learnFromReport(
  state: ClientState,
  learnable: Learnable,
  label: FeedbackLabel,
  calibration: Calibration,
  limits: { maxReports: number; maxWeights: number },
): StateChange {
  const key = reportKeyOf(learnable.fingerprint);
  const change: StateChange = { write: [[key, label]], remove: [] };
  const others = state.reports.filter((report) => report.key !== key);
  const excess = others.length + 1 - limits.maxReports;
  for (const report of others.slice(0, Math.max(0, excess))) change.remove.push(report.key);

  const { features, language } = learnable;
  const current = learnable.margin + adjustment(state.weights, features);
  const target = calibration.marginFor(TARGET[label], language);
  const missing = label === 'spam' ? target - current : current - target;
  let norm = 0;
  for (let k = 0; k < features.values.length; k++) norm += (features.values[k] as number) ** 2;
  if (missing <= 0 || norm === 0) return change;
  const step = Math.min(AGGRESSIVENESS, missing / norm) * (label === 'spam' ? 1 : -1);
  const weights = new Map(state.weights);
  for (let k = 0; k < features.indices.length; k++) {
    const index = features.indices[k] as number;
    weights.set(index, (weights.get(index) ?? 0) + step * (features.values[k] as number));
  }
  const dropped = new Set<number>();
  if (weights.size > limits.maxWeights) {
    const smallest = [...weights].sort((a, b) => Math.abs(a[1]) - Math.abs(b[1]));
    for (const [index] of smallest.slice(0, weights.size - limits.maxWeights)) dropped.add(index);
  }
  for (let k = 0; k < features.indices.length; k++) {
    const index = features.indices[k] as number;
    if (!dropped.has(index)) change.write.push([WEIGHT_PREFIX + index, String(weights.get(index))]);
  }
  for (const index of dropped) change.remove.push(WEIGHT_PREFIX + index);
  return change;
}

/** The client's state from its stored entries (oldest first). */
export function stateOf(entries: readonly (readonly [string, string])[]): ClientState {
  const state: ClientState = { reports: [], bands: new Map(), weights: new Map() };
  for (const [key, value] of entries) {
    if (key.startsWith(WEIGHT_PREFIX)) {
      state.weights.set(Number(key.slice(WEIGHT_PREFIX.length)), Number(value));
    } else if (key.startsWith(REPORT_PREFIX)) {
      const fingerprint = decodeFingerprint(key.slice(REPORT_PREFIX.length));
      const index = state.reports.push({ key, label: value as FeedbackLabel, fingerprint }) - 1;
      for (const band of bandKeys(fingerprint.signature)) {
        const list = state.bands.get(band);
        if (list) list.push(index);
        else state.bands.set(band, [index]);
      }
    }
  }
  return state;
}

export const EMPTY_STATE: ClientState = { reports: [], bands: new Map(), weights: new Map() };

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
