import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadModel, type TextModel } from '../domain/model/classifier';

/** The committed model, relative to the package root (works from src/ and from dist/). */
const DEFAULT_MODEL_PATH = resolve(__dirname, '../../model/text-model.bin');

export function readModelFile(path: string = DEFAULT_MODEL_PATH): TextModel {
  return loadModel(readFileSync(path));
}
