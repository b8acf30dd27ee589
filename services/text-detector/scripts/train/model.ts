import {
  OTHER_LANGUAGE,
  encodeModel,
  loadModel,
  type ModelHeader,
  type TextModel,
} from '../../src/domain/model/classifier';
import type { FeatureSpace } from '../../src/domain/model/extractor';
import { trainedWithNow } from '../../src/domain/model/provenance';
import {
  HANDMADE,
  MAIL_LIKE_HAM,
  PRODUCT_MAIL,
  mulberry32,
  shuffle,
  stratifiedFolds,
  type Dataset,
} from './data';

/** The training recipe of the shipped model; model/MODEL_CARD.md describes every number here. */
export const SPACE: FeatureSpace = {
  bits: 20,
  wordNorm: 1,
  charNorm: 0.5,
  shapeNorm: 0.5,
  cueNorm: 1,
  formNorm: 1,
  charMax: 4,
  charLimit: 1000,
  textLimit: 4000,
};
export const RECIPE = {
  epochs: 10,
  learningRate: 0.4,
  l2: 2e-7,
  /** Sample weight 1 / (size of the row's (source group, language, label) cell) ^ balance. */
  balance: 0.5,
  /**
   * Weight of the mail-like ham of extra2.jsonl.gz (newsletters, filled templates) next to the other rows:
   * few sources whose label their source gives away, so they should not decide what mail-like means.
   */
  mailLikeWeight: 1,
  /** Weight of the made-up rows of model/handmade next to the other rows. */
  handmadeWeight: 2,
  /** A feature is kept when it occurs in at least vocabDocs documents of each of vocabGroups groups. */
  vocabGroups: 2,
  vocabDocs: 3,
  /**
   * Cross-fitting: one model per fold of the training rows, trained on the other folds; the calibration is
   * fitted on each row's margin from the model that did not see it, and the shipped weights are the mean of
   * the fold models (a linear model again).
   */
  folds: 3,
  /**
   * Share of spam the calibration demands, on those out-of-fold margins, among the texts of each language
   * at or above the spam threshold, counted with one imaginary ham among them (see fitCalibration).
   */
  spamPrecision: 0.99,
  /** Languages with both labels in the data: texts in these are the model's own ground. */
  languages: ['en', 'de', 'fr'],
  /** Share of a text's words that need a weight for the text to be familiar. */
  minCoverage: 0.5,
};

/** `--set name=value,...` of the training command: an experiment with other numbers of the recipe. */
export function overrideRecipe(pairs: string | undefined): void {
  for (const pair of (pairs ?? '').split(',').filter(Boolean)) {
    const [name, value] = pair.split('=');
    const numeric = Number(value);
    if (
      !name ||
      !(name in RECIPE) ||
      typeof RECIPE[name as keyof typeof RECIPE] !== 'number' ||
      Number.isNaN(numeric)
    )
      throw new Error(`bad --set ${pair}: not a number of RECIPE`);
    (RECIPE as Record<string, unknown>)[name] = numeric;
  }
}

interface LinearModel {
  weights: Float32Array;
  bias: number;
}

/**
 * The cell of a row's sample weight: its source group, language and label; each product's mails are a cell
 * of their own (one group for the vocabulary, see groupOf), so that 23 products weigh as 23 small sources.
 */
const cellOf = (data: Dataset, doc: number) => {
  const source = data.rows[doc]?.source as string;
  const group = PRODUCT_MAIL.has(source) ? source : (data.groups[doc] as string);
  return `${group}:${data.languages[doc] as string}:${data.labels[doc] as number}`;
};

function weightOfSource(data: Dataset, doc: number): number {
  if (MAIL_LIKE_HAM.has(data.rows[doc]?.source as string)) return RECIPE.mailLikeWeight;
  return data.groups[doc] === HANDMADE ? RECIPE.handmadeWeight : 1;
}

/** Sample weights against the imbalance of (source group, language, label) cells, mean 1. */
function sampleWeights(data: Dataset, docs: number[]): Float32Array {
  const counts = new Map<string, number>();
  for (const doc of docs) counts.set(cellOf(data, doc), (counts.get(cellOf(data, doc)) ?? 0) + 1);
  const raw = docs.map(
    (doc) => weightOfSource(data, doc) / Math.pow(counts.get(cellOf(data, doc)) ?? 1, RECIPE.balance),
  );
  const mean = raw.reduce((a, b) => a + b, 0) / raw.length;
  return Float32Array.from(raw, (w) => w / mean);
}

/**
 * The kept vocabulary: features seen (in at least vocabDocs documents) in at least vocabGroups different
 * source groups, so the model cannot lean on one corpus's artefacts (names, footers, shorthand).
 */
function vocabulary(data: Dataset, docs: number[]): Uint8Array {
  const size = 1 << SPACE.bits;
  const groups = [...new Set(docs.map((doc) => data.groups[doc] as string))].sort();
  const seenIn = new Uint8Array(size);
  const perGroup = new Uint16Array(size);
  for (const group of groups) {
    perGroup.fill(0);
    for (const doc of docs) {
      if (data.groups[doc] !== group) continue;
      for (let p = data.offsets[doc] as number; p < (data.offsets[doc + 1] as number); p++) {
        const index = data.indices[p] as number;
        if (perGroup[index] !== 65535) perGroup[index] = (perGroup[index] as number) + 1;
      }
    }
    for (let i = 0; i < size; i++)
      if ((perGroup[i] as number) >= RECIPE.vocabDocs) seenIn[i] = (seenIn[i] as number) + 1;
  }
  return Uint8Array.from(seenIn, (n) => (n >= RECIPE.vocabGroups ? 1 : 0));
}

/** Logistic regression, AdaGrad, L2 on the touched coordinates, seeded shuffling. */
function trainLogistic(data: Dataset, docs: number[], seed: number, epochs: number): LinearModel {
  const keep = vocabulary(data, docs);
  const size = 1 << SPACE.bits;
  const weights = new Float32Array(size);
  const squares = new Float32Array(size).fill(1e-6);
  let bias = 0;
  let biasSquare = 1e-6;
  const weightOf = sampleWeights(data, docs);
  const order = docs.map((_, k) => k);
  const random = mulberry32(seed);
  for (let epoch = 0; epoch < epochs; epoch++) {
    shuffle(order, random);
    for (const k of order) {
      const doc = docs[k] as number;
      const from = data.offsets[doc] as number;
      const to = data.offsets[doc + 1] as number;
      let z = bias;
      for (let p = from; p < to; p++)
        z += (weights[data.indices[p] as number] as number) * (data.values[p] as number);
      const error = (1 / (1 + Math.exp(-z)) - (data.labels[doc] as number)) * (weightOf[k] as number);
      for (let p = from; p < to; p++) {
        const index = data.indices[p] as number;
        if (keep[index] === 0) continue;
        const w = weights[index] as number;
        const gradient = error * (data.values[p] as number) + RECIPE.l2 * w;
        const g2 = (squares[index] as number) + gradient * gradient;
        squares[index] = g2;
        weights[index] = w - (RECIPE.learningRate * gradient) / Math.sqrt(g2);
      }
      biasSquare += error * error;
      bias -= (RECIPE.learningRate * error) / Math.sqrt(biasSquare);
    }
  }
  return { weights, bias };
}

function quantise(model: LinearModel): { weights: Int16Array; scale: number } {
  let max = 0;
  for (const w of model.weights) max = Math.max(max, Math.abs(w));
  const scale = max / 32767 || 1;
  return { weights: Int16Array.from(model.weights, (w) => Math.round(w / scale)), scale };
}

const calibrationLanguage = (language: string | null): string =>
  language !== null && RECIPE.languages.includes(language) ? language : OTHER_LANGUAGE;

/**
 * Platt scaling with one slope and one intercept per language (the detected one, as at check time),
 * fitted by gradient descent on the log loss of held-back rows, unweighted: each language's own base rate
 * of spam is part of what the score means. Then made conservative above 0.5 (see spamPrecision).
 */
function fitCalibration(
  data: Dataset,
  docs: number[],
  margins: Float64Array,
  spamThreshold: number,
): ModelHeader['calibration'] {
  const names = [...RECIPE.languages, OTHER_LANGUAGE];
  const languageOf = Int32Array.from(docs, (doc) =>
    names.indexOf(calibrationLanguage(data.detected[doc] as string | null)),
  );
  let slope = 1;
  const intercepts = new Float64Array(names.length);
  const counts = new Float64Array(names.length);
  for (const l of languageOf) counts[l] = (counts[l] as number) + 1;
  for (let step = 0; step < 3000; step++) {
    let gSlope = 0;
    const gIntercepts = new Float64Array(names.length);
    docs.forEach((doc, k) => {
      const l = languageOf[k] as number;
      const m = margins[k] as number;
      const error =
        1 / (1 + Math.exp(-(slope * m + (intercepts[l] as number)))) - (data.labels[doc] as number);
      gSlope += error * m;
      gIntercepts[l] = (gIntercepts[l] as number) + error;
    });
    slope -= (0.5 * gSlope) / docs.length;
    for (let l = 0; l < names.length; l++)
      if ((counts[l] as number) > 0)
        intercepts[l] =
          (intercepts[l] as number) - (0.5 * (gIntercepts[l] as number)) / (counts[l] as number);
  }
  // Conservative at the top: above 0.5 a language's log-odds are scaled by topScale ≤ 1, so that the texts
  // at or above the spam threshold are spamPrecision spam. What is flagged (≥ 0.5) does not change; only
  // fewer texts reach `spam` from the local stages (the unsure ones go to the LLM). The share is counted
  // with one imaginary ham above the threshold (spam / (texts + 1)): where a language has many texts up
  // there it changes nothing, where it has few (French: about 250) one ham more or less would otherwise
  // decide where the threshold goes.
  const logit = (p: number) => Math.log(p / (1 - p));
  const topScale = new Float64Array(names.length).fill(1);
  for (let l = 0; l < names.length; l++) {
    const rows: { z: number; label: number }[] = [];
    docs.forEach((doc, k) => {
      const z = slope * (margins[k] as number) + (intercepts[l] as number);
      if (languageOf[k] === l && z > 0) rows.push({ z, label: data.labels[doc] as number });
    });
    const cut = spamCut(rows);
    if (cut !== undefined) topScale[l] = Math.max(0.05, Math.min(1, logit(spamThreshold) / cut));
  }
  const byName = (values: Float64Array) =>
    Object.fromEntries(names.map((name, l) => [name, values[l] as number]));
  return { slope, intercepts: byName(intercepts), topScale: byName(topScale) };
}

/**
 * The lowest score at which the texts at or above it are spamPrecision spam, counted with one imaginary ham
 * (texts tied at a score are taken together); just above the highest when there is none, so nothing reaches
 * it; undefined without texts. The exact cut of the texts, not a grid. Here on calibrated log-odds.
 */
function spamCut(rows: { z: number; label: number }[]): number | undefined {
  if (rows.length === 0) return undefined;
  rows.sort((a, b) => b.z - a.z);
  // Scaled away from zero (the calibration's log-odds here are all above 0; other scores may not be).
  const top = (rows[0] as { z: number }).z;
  let cut = (top > 0 ? top * (1 + 1e-9) : top / (1 + 1e-9)) + 1e-9;
  let spam = 0;
  rows.forEach((row, i) => {
    spam += row.label;
    const lastOfTie = i + 1 === rows.length || (rows[i + 1] as { z: number }).z < row.z;
    if (lastOfTie && spam >= RECIPE.spamPrecision * (i + 2)) cut = row.z;
  });
  // The quotient topScale = logit(threshold) / cut must not leave the cut's own texts a rounding below it.
  return cut > 0 ? cut * (1 - 1e-12) : cut * (1 + 1e-12);
}

function toModel(linear: LinearModel, calibration: ModelHeader['calibration'], metrics?: unknown) {
  const { weights, scale } = quantise(linear);
  const header: ModelHeader = {
    format: 2,
    space: SPACE,
    scale,
    bias: linear.bias,
    calibration,
    languages: RECIPE.languages,
    minCoverage: RECIPE.minCoverage,
    trainedAt: 'deterministic',
    trainedWith: trainedWithNow(),
    ...(metrics === undefined ? {} : { metrics }),
  };
  const file = encodeModel(header, weights);
  return { file, model: loadModel(file) };
}

/**
 * How much work a training does: the shipped model and the held-out split use the recipe's numbers; the 23
 * leave-one-product-out models use LIGHT, so that all of them train in minutes (the model card says which
 * figure came from which).
 */
export interface Effort {
  epochs: number;
  folds: number;
}

export const LIGHT: Effort = { epochs: 4, folds: 2 };

export interface Fitted {
  model: TextModel;
  /** Each fold's model (with the shared calibration) and the rows it did not see: out-of-fold scoring. */
  foldModels: { docs: number[]; model: TextModel }[];
  /** The model file; its header's metrics are filled in by the caller for the shipped model. */
  write(metrics?: unknown): Buffer;
  /** Each training row's margin from the fold model that did not see it (what the calibration was fitted on). */
  outOfFold: { docs: number[]; margins: Float64Array };
}

/**
 * Cross-fitted training (RECIPE.folds) and calibration on the out-of-fold margins; returns the model as the
 * service loads it (quantised, from its file bytes).
 */
export function fit(
  data: Dataset,
  docs: number[],
  seed: number,
  spamThreshold: number,
  effort: Effort = { epochs: RECIPE.epochs, folds: RECIPE.folds },
): Fitted {
  const folds = stratifiedFolds(data, docs, effort.folds, seed + 1);
  const linears: LinearModel[] = [];
  const size = 1 << SPACE.bits;
  const mean: LinearModel = { weights: new Float32Array(size), bias: 0 };
  const outOfFold: number[] = [];
  const margins: number[] = [];
  folds.forEach((fold, f) => {
    const inFold = new Set(fold);
    const linear = trainLogistic(
      data,
      docs.filter((doc) => !inFold.has(doc)),
      seed + f,
      effort.epochs,
    );
    linears.push(linear);
    for (const doc of fold) {
      const { indices, values } = vectorOf(data, doc);
      let z = linear.bias;
      for (let p = 0; p < indices.length; p++)
        z += (linear.weights[indices[p] as number] as number) * (values[p] as number);
      outOfFold.push(doc);
      margins.push(z);
    }
    for (let i = 0; i < size; i++)
      mean.weights[i] = (mean.weights[i] as number) + (linear.weights[i] as number) / folds.length;
    mean.bias += linear.bias / folds.length;
  });
  const oofMargins = Float64Array.from(margins);
  const calibration = fitCalibration(data, outOfFold, oofMargins, spamThreshold);
  const { model } = toModel(mean, calibration);
  return {
    model,
    get foldModels() {
      return folds.map((fold, f) => ({
        docs: fold,
        model: toModel(linears[f] as LinearModel, calibration).model,
      }));
    },
    write: (metrics) => toModel(mean, calibration, metrics).file,
    outOfFold: { docs: outOfFold, margins: oofMargins },
  };
}

function vectorOf(data: Dataset, doc: number) {
  const from = data.offsets[doc] as number;
  const to = data.offsets[doc + 1] as number;
  return { indices: data.indices.subarray(from, to), values: data.values.subarray(from, to) };
}
