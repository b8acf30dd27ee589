import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadModel, type TextModel } from '../domain/model/classifier';
import { assertTrainedWithNow } from '../domain/model/provenance';

/** The committed model, relative to the package root (works from src/ and from dist/). */
const DEFAULT_MODEL_PATH = resolve(__dirname, '../../model/text-model.bin');

/** Reads a model file; throws (the service does not start) when it was made under other rule weights. */
export function readModelFile(path: string = DEFAULT_MODEL_PATH): TextModel {
  const model = loadModel(readFileSync(path));
  assertTrainedWithNow(model.header.trainedWith, path);
  return model;
}
