import { FeatureExtractor, type FeatureSpace, type ModelInput, type SparseVector } from './features';

/**
 * The shipped model: logistic regression over hashed features, weights quantised to Int16.
 * File layout (little-endian): magic `SCTM`, uint32 header length, UTF-8 JSON header, padding to 4 bytes,
 * then one Int16 per bucket. The header carries the feature space, the weight scale, the bias and the
 * metrics measured by the training script.
 */
export interface ModelHeader {
  format: 1;
  space: FeatureSpace;
  scale: number;
  bias: number;
  trainedAt: string;
  metrics?: unknown;
}

export interface TextModel {
  header: ModelHeader;
  /** Probability that the text is spam, 0..1. */
  predict(input: ModelInput): number;
  scoreVector(vector: SparseVector): number;
}

const MAGIC = 'SCTM';

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

export function decodeModel(file: Buffer): { header: ModelHeader; weights: Int16Array } {
  if (file.toString('latin1', 0, 4) !== MAGIC) throw new Error('not a text model file (bad magic)');
  const length = file.readUInt32LE(4);
  const header = JSON.parse(file.toString('utf8', 8, 8 + length)) as ModelHeader;
  if (header.format !== 1) throw new Error(`unsupported text model format ${String(header.format)}`);
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
  const scoreVector = (vector: SparseVector): number => {
    let z = header.bias;
    for (let k = 0; k < vector.indices.length; k++) {
      z += (weights[vector.indices[k] as number] as number) * header.scale * (vector.values[k] as number);
    }
    return 1 / (1 + Math.exp(-z));
  };
  return { header, scoreVector, predict: (input) => scoreVector(extractor.extract(input)) };
}
