import { FeatureExtractor, type FeatureSpace, type ModelInput, type SparseVector } from './extractor';
import type { TrainedWith } from './provenance';

/**
 * The shipped model: logistic regression over hashed features, weights quantised to Int16, with a
 * per-language calibration of its score and a record of what it was trained on, so it can say when a text
 * is out of its depth.
 * File layout (little-endian): magic `SCTM`, uint32 header length, UTF-8 JSON header, padding to 4 bytes,
 * then one Int16 per bucket.
 */
export interface ModelHeader {
  format: 2;
  space: FeatureSpace;
  scale: number;
  bias: number;
  /**
   * Platt scaling fitted on held-back training data, conservative above 0.5: with
   * L = slope · margin + intercepts[language], p = σ(L) when L < 0, else σ(topScale[language] · L).
   */
  calibration: { slope: number; intercepts: Record<string, number>; topScale: Record<string, number> };
  /** Languages with enough training data of both labels; other texts are unfamiliar. */
  languages: string[];
  /** Share of a text's words that must have a weight for the text to be familiar. */
  minCoverage: number;
  trainedAt: string;
  /** The rule weights and extractor it was trained with (absent in older model files). */
  trainedWith?: TrainedWith;
  metrics?: unknown;
}

export interface ModelAnswer {
  /** Calibrated probability that the text is spam, 0..1. */
  probability: number;
  /** Share of the text's words the model has a weight for (1 for a text without words). */
  coverage: number;
  /** The uncalibrated margin and the feature vector it was computed from (for per-client adjustments). */
  margin: number;
  vector: SparseVector;
}

export interface TextModel {
  header: ModelHeader;
  predict(input: ModelInput, language: string | null): ModelAnswer;
  /** The uncalibrated margin of a feature vector (for the training script). */
  margin(vector: SparseVector): number;
  /** The calibrated probability of a margin for a language. */
  calibrate(margin: number, language: string | null): number;
  /** The margin whose calibrated probability for a language is `probability` (the inverse of calibrate). */
  marginFor(probability: number, language: string | null): number;
}

const MAGIC = 'SCTM';
export const OTHER_LANGUAGE = 'other';

export function encodeModel(header: ModelHeader, weights: Int16Array): Buffer {
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const headerEnd = 8 + json.length;
  const padded = headerEnd + ((4 - (headerEnd % 4)) % 4);
  const out = Buffer.alloc(padded + weights.byteLength);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(json.length, 4);
  json.copy(out, 8);
  Buffer.from(weights.buffer, weights.byteOffset, weights.byteLength).copy(out, padded);
  return out;
}

function decodeModel(file: Buffer): { header: ModelHeader; weights: Int16Array } {
  if (file.toString('latin1', 0, 4) !== MAGIC) throw new Error('not a text model file (bad magic)');
  const length = file.readUInt32LE(4);
  const header = JSON.parse(file.toString('utf8', 8, 8 + length)) as ModelHeader;
  if (header.format !== 2) throw new Error(`unsupported text model format ${String(header.format)}`);
  const headerEnd = 8 + length;
  const start = headerEnd + ((4 - (headerEnd % 4)) % 4);
  const count = 1 << header.space.bits;
  if (file.length - start !== count * 2) throw new Error('text model file is truncated');
  const weights = new Int16Array(count);
  for (let i = 0; i < count; i++) weights[i] = file.readInt16LE(start + 2 * i);
  return { header, weights };
}

export function loadModel(file: Buffer): TextModel {
  const { header, weights } = decodeModel(file);
  const extractor = new FeatureExtractor(header.space);
  const known = new Set(header.languages);
  const { slope, intercepts, topScale } = header.calibration;
  const margin = (vector: SparseVector): number => {
    let z = header.bias;
    for (let k = 0; k < vector.indices.length; k++) {
      z += (weights[vector.indices[k] as number] as number) * header.scale * (vector.values[k] as number);
    }
    return z;
  };
  const keyOf = (language: string | null) =>
    language !== null && known.has(language) ? language : OTHER_LANGUAGE;
  const calibrate = (value: number, language: string | null): number => {
    const key = keyOf(language);
    const logOdds = slope * value + (intercepts[key] ?? 0);
    return 1 / (1 + Math.exp(-(logOdds < 0 ? logOdds : (topScale[key] ?? 1) * logOdds)));
  };
  const marginFor = (probability: number, language: string | null): number => {
    const key = keyOf(language);
    const logit = Math.log(probability / (1 - probability));
    const logOdds = logit < 0 ? logit : logit / (topScale[key] ?? 1);
    return (logOdds - (intercepts[key] ?? 0)) / slope;
  };
  const predict = (input: ModelInput, language: string | null): ModelAnswer => {
    const { vector, wordBuckets } = extractor.extract(input);
    let weighted = 0;
    for (const bucket of wordBuckets) if (weights[bucket] !== 0) weighted++;
    const coverage = wordBuckets.length === 0 ? 1 : weighted / wordBuckets.length;
    const value = margin(vector);
    return { probability: calibrate(value, language), coverage, margin: value, vector };
  };
  return { header, predict, margin, calibrate, marginFor };
}
