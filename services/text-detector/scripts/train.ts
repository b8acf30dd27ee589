/**
 * Trains the text model on ../shared/data/text/train.jsonl.gz (relative to the repository root), prints
 * metrics on a held-out split and on three leave-one-source-out splits next to a multinomial naive Bayes
 * baseline, then trains on everything and writes model/text-model.bin.
 *
 * Deterministic: a fixed seed drives the split and the shuffling; single-threaded.
 * Usage: pnpm --filter @spam-check/text-detector train [--data <path>] [--out <path>] [--no-write]
 *        [--only held,leave] (evaluate only the splits whose name contains one of these)
 *        [--set name=value,...] (experiment with the OPTIONS below; the committed model uses the defaults)
 * Nothing is tuned on a test split: the held-out 20 % and each left-out source are only scored.
 */
import { readFileSync, writeFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { encodeModel, loadModel, type ModelHeader } from '../src/domain/model/classifier';
import { FeatureExtractor, normaliseForModel, words, type FeatureSpace } from '../src/domain/model/features';

const REPO_ROOT = resolve(__dirname, '../../..');
const SEED = 20260421;

/**
 * Training options; each can be overridden for an experiment with `--set name=value,name=value`
 * (the committed model is trained with the defaults below).
 */
const OPTIONS = {
  bits: 20,
  epochs: 6,
  learningRate: 0.4,
  l2: 2e-7,
  /** Exponent of the (source group, label) cell size in the sample weights: 0 = none, 1 = full balance. */
  balance: 0.5,
  wordNorm: 1,
  charNorm: 0.5,
  shapeNorm: 0.5,
  cueNorm: 1,
  charMax: 4,
  charLimit: 1000,
  textLimit: 4000,
  hash: 2,
  /** Keep only features seen in at least this many training source groups (1 = all features). */
  vocabGroups: 2,
  /** Documents a feature needs within one group to count as seen there. */
  vocabDocs: 3,
  /** 1 = choose the decision threshold on a validation part of the training sources (mean per-source MCC). */
  tuneThreshold: 0,
  /** 1 = one intercept per source group while training, the model keeps their mean; 2 = then refits one. */
  groupBias: 0,
};
type Options = typeof OPTIONS;
for (const pair of (argument('--set') ?? '').split(',').filter(Boolean)) {
  const [name, value] = pair.split('=');
  if (!name || !(name in OPTIONS) || value === undefined || Number.isNaN(Number(value)))
    throw new Error(`bad --set ${pair}`);
  OPTIONS[name as keyof Options] = Number(value);
}
const BITS = OPTIONS.bits;
const SPACE: FeatureSpace = {
  bits: BITS,
  wordNorm: OPTIONS.wordNorm,
  charNorm: OPTIONS.charNorm,
  shapeNorm: OPTIONS.shapeNorm,
  ...(OPTIONS.cueNorm > 0 ? { cueNorm: OPTIONS.cueNorm } : {}),
  ...(OPTIONS.hash !== 1 || OPTIONS.charMax !== 5 || OPTIONS.charLimit !== 4000 || OPTIONS.textLimit !== 4000
    ? {
        hash: OPTIONS.hash,
        charMax: OPTIONS.charMax,
        charLimit: OPTIONS.charLimit,
        textLimit: OPTIONS.textLimit,
      }
    : {}),
};

interface Row {
  id: string;
  source: string;
  title: string;
  body: string;
  label: 'spam' | 'ham';
}

interface Dataset {
  rows: Row[];
  groups: string[];
  labels: Uint8Array;
  offsets: Int32Array;
  indices: Int32Array;
  values: Float32Array;
}

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

function groupOf(source: string): string {
  return source.split('/')[0] ?? source;
}

function loadDataset(path: string): Dataset {
  const rows = gunzipSync(readFileSync(path))
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Row);
  const extractor = new FeatureExtractor(SPACE);
  const offsets = new Int32Array(rows.length + 1);
  const chunksI: Int32Array[] = [];
  const chunksV: Float32Array[] = [];
  let total = 0;
  rows.forEach((row, i) => {
    const vector = extractor.extract({ title: row.title, body: row.body });
    chunksI.push(vector.indices);
    chunksV.push(vector.values);
    total += vector.indices.length;
    offsets[i + 1] = total;
  });
  const indices = new Int32Array(total);
  const values = new Float32Array(total);
  chunksI.forEach((chunk, i) => indices.set(chunk, offsets[i]));
  chunksV.forEach((chunk, i) => values.set(chunk, offsets[i]));
  return {
    rows,
    groups: rows.map((row) => groupOf(row.source)),
    labels: Uint8Array.from(rows, (row) => (row.label === 'spam' ? 1 : 0)),
    offsets,
    indices,
    values,
  };
}

/** Sample weights against the imbalance of (source group, label) cells, tempered by BALANCE. */
function sampleWeights(data: Dataset, docs: number[]): Float32Array {
  const counts = new Map<string, number>();
  for (const doc of docs) {
    const key = `${data.groups[doc] as string}:${data.labels[doc] as number}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const raw = docs.map(
    (doc) =>
      1 /
      Math.pow(
        counts.get(`${data.groups[doc] as string}:${data.labels[doc] as number}`) ?? 1,
        OPTIONS.balance,
      ),
  );
  const mean = raw.reduce((a, b) => a + b, 0) / raw.length;
  return Float32Array.from(raw, (w) => w / mean);
}

interface LinearModel {
  weights: Float32Array;
  bias: number;
}

/** Logistic regression, AdaGrad, L2 applied to the touched coordinates, seeded shuffling. */
function trainLogistic(data: Dataset, docs: number[], seed: number, keep: Uint8Array): LinearModel {
  const size = 1 << BITS;
  const weights = new Float32Array(size);
  const squares = new Float32Array(size).fill(1e-6);
  // With groupBias, each source group has its own intercept while training (so the shared weights learn
  // what separates spam from ham within a source, not which source is spammier); the model keeps their mean.
  const groupNames = [...new Set(docs.map((doc) => data.groups[doc] as string))].sort();
  const groupOf = new Map(groupNames.map((name, i) => [name, OPTIONS.groupBias ? i : 0]));
  const biases = new Float64Array(groupNames.length);
  const biasSquares = new Float64Array(groupNames.length).fill(1e-6);
  const weightOf = sampleWeights(data, docs);
  const order = docs.map((_, k) => k);
  const random = mulberry32(seed);
  for (let epoch = 0; epoch < OPTIONS.epochs; epoch++) {
    shuffle(order, random);
    for (const k of order) {
      const doc = docs[k] as number;
      const from = data.offsets[doc] as number;
      const to = data.offsets[doc + 1] as number;
      const group = groupOf.get(data.groups[doc] as string) as number;
      let z = biases[group] as number;
      for (let p = from; p < to; p++)
        z += (weights[data.indices[p] as number] as number) * (data.values[p] as number);
      // Weights of features outside the kept vocabulary stay 0, so they never count.
      const probability = 1 / (1 + Math.exp(-z));
      const error = (probability - (data.labels[doc] as number)) * (weightOf[k] as number);
      for (let p = from; p < to; p++) {
        const index = data.indices[p] as number;
        if (keep[index] === 0) continue;
        const w = weights[index] as number;
        const gradient = error * (data.values[p] as number) + OPTIONS.l2 * w;
        const g2 = (squares[index] as number) + gradient * gradient;
        squares[index] = g2;
        weights[index] = w - (OPTIONS.learningRate * gradient) / Math.sqrt(g2);
      }
      biasSquares[group] = (biasSquares[group] as number) + error * error;
      biases[group] =
        (biases[group] as number) - (OPTIONS.learningRate * error) / Math.sqrt(biasSquares[group]);
    }
  }
  const used = OPTIONS.groupBias ? groupNames.length : 1;
  const bias = biases.subarray(0, used).reduce((a, b) => a + b, 0) / used;
  if (OPTIONS.groupBias !== 2) return { weights, bias };
  // groupBias 2: keep the source-neutral weights, refit one intercept on all training documents (weighted).
  const margins = docs.map((doc) => {
    let z = 0;
    for (let p = data.offsets[doc] as number; p < (data.offsets[doc + 1] as number); p++)
      z += (weights[data.indices[p] as number] as number) * (data.values[p] as number);
    return z;
  });
  let low = -20;
  let high = 20;
  for (let step = 0; step < 50; step++) {
    const middle = (low + high) / 2;
    let gradient = 0;
    docs.forEach((doc, k) => {
      const probability = 1 / (1 + Math.exp(-((margins[k] as number) + middle)));
      gradient += (probability - (data.labels[doc] as number)) * (weightOf[k] as number);
    });
    if (gradient > 0) high = middle;
    else low = middle;
  }
  return { weights, bias: (low + high) / 2 };
}

/**
 * The kept vocabulary: features seen (in at least vocabDocs documents) in at least vocabGroups different
 * source groups of the training documents, so the model cannot lean on one corpus's artefacts.
 */
function vocabulary(data: Dataset, docs: number[]): Uint8Array {
  const size = 1 << BITS;
  const keep = new Uint8Array(size);
  if (OPTIONS.vocabGroups <= 1) return keep.fill(1);
  const groupNames = [...new Set(docs.map((doc) => data.groups[doc] as string))].sort();
  const seenIn = new Uint8Array(size);
  const perGroup = new Uint16Array(size);
  for (const group of groupNames) {
    perGroup.fill(0);
    for (const doc of docs) {
      if (data.groups[doc] !== group) continue;
      for (let p = data.offsets[doc] as number; p < (data.offsets[doc + 1] as number); p++) {
        const index = data.indices[p] as number;
        if (data.values[p] !== 0 && perGroup[index] !== 65535)
          perGroup[index] = (perGroup[index] as number) + 1;
      }
    }
    for (let i = 0; i < size; i++)
      if ((perGroup[i] as number) >= OPTIONS.vocabDocs) seenIn[i] = (seenIn[i] as number) + 1;
  }
  for (let i = 0; i < size; i++) keep[i] = (seenIn[i] as number) >= OPTIONS.vocabGroups ? 1 : 0;
  return keep;
}

/** MCC of the documents at a probability threshold. */
function mccAt(data: Dataset, docs: number[], scores: Float64Array, threshold: number): number {
  let tp = 0;
  let fp = 0;
  let tn = 0;
  let fn = 0;
  docs.forEach((doc, k) => {
    const predicted = (scores[k] as number) >= threshold;
    const actual = data.labels[doc] === 1;
    if (predicted && actual) tp++;
    else if (predicted) fp++;
    else if (actual) fn++;
    else tn++;
  });
  const denominator = Math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn));
  return denominator ? (tp * tn - fp * fn) / denominator : 0;
}

/**
 * Trains on the given documents. With tuneThreshold, first trains on 80 % of them and picks the probability
 * threshold that maximises the mean per-source-group MCC on the other 20 % (only these training sources),
 * then trains on all of them and moves the bias so that this threshold becomes 0.5.
 */
function fit(data: Dataset, docs: number[], seed: number): { model: LinearModel; threshold: number } {
  let threshold = 0.5;
  if (OPTIONS.tuneThreshold) {
    const inner = stratifiedSplit(data, docs, 0.2, seed + 1);
    const model = trainLogistic(data, inner.train, seed, vocabulary(data, inner.train));
    const score = scorer(data, model);
    const byGroup = new Map<string, number[]>();
    for (const doc of inner.test)
      byGroup.set(data.groups[doc] as string, [...(byGroup.get(data.groups[doc] as string) ?? []), doc]);
    const groups = [...byGroup.values()].map((groupDocs) => ({
      docs: groupDocs,
      scores: Float64Array.from(groupDocs, score),
    }));
    let best = -2;
    for (let t = 0.02; t < 0.99; t += 0.01) {
      const mean = groups.reduce((sum, g) => sum + mccAt(data, g.docs, g.scores, t), 0) / groups.length;
      if (mean > best + 1e-9) {
        best = mean;
        threshold = t;
      }
    }
  }
  const model = trainLogistic(data, docs, seed, vocabulary(data, docs));
  model.bias -= Math.log(threshold / (1 - threshold));
  return { model, threshold };
}

function quantise(model: LinearModel): { weights: Int16Array; scale: number } {
  let max = 0;
  for (const w of model.weights) max = Math.max(max, Math.abs(w));
  const scale = max / 32767 || 1;
  return { weights: Int16Array.from(model.weights, (w) => Math.round(w / scale)), scale };
}

function header(model: LinearModel, scale: number, metrics?: unknown): ModelHeader {
  return { format: 1, space: SPACE, scale, bias: model.bias, trainedAt: 'deterministic', metrics };
}

/** Scores through the real loader, so the metrics are those of the quantised file the service ships. */
function scorer(data: Dataset, model: LinearModel): (doc: number) => number {
  const { weights, scale } = quantise(model);
  const shipped = loadModel(encodeModel(header(model, scale), weights));
  return (doc) => {
    const from = data.offsets[doc] as number;
    const to = data.offsets[doc + 1] as number;
    return shipped.scoreVector({
      indices: data.indices.subarray(from, to),
      values: data.values.subarray(from, to),
    });
  };
}

interface NaiveBayes {
  logPrior: [number, number];
  logLikelihood: [Float64Array, Float64Array];
}

const NB_BITS = 20;
function nbTokens(row: Row): number[] {
  return words(normaliseForModel(`${row.title} ${row.body}`)).map((token) => {
    let hash = 0x811c9dc5;
    for (let i = 0; i < token.length; i++) hash = Math.imul(hash ^ token.charCodeAt(i), 0x01000193);
    return (hash >>> 0) & ((1 << NB_BITS) - 1);
  });
}

function trainNaiveBayes(data: Dataset, docs: number[], tokens: number[][]): NaiveBayes {
  const size = 1 << NB_BITS;
  const counts = [new Float64Array(size), new Float64Array(size)] as const;
  const totals = new Float64Array(2);
  const docsPerClass = new Float64Array(2);
  for (const doc of docs) {
    const label = data.labels[doc] as 0 | 1;
    docsPerClass[label] = (docsPerClass[label] as number) + 1;
    const classCounts = counts[label];
    for (const token of tokens[doc] as number[]) {
      classCounts[token] = (classCounts[token] as number) + 1;
      totals[label] = (totals[label] as number) + 1;
    }
  }
  const logLikelihood = counts.map((c, label) =>
    Float64Array.from(c, (n) => Math.log((n + 1) / ((totals[label] as number) + size))),
  ) as [Float64Array, Float64Array];
  const logPrior: [number, number] = [
    Math.log((docsPerClass[0] as number) / docs.length),
    Math.log((docsPerClass[1] as number) / docs.length),
  ];
  return { logPrior, logLikelihood };
}

function nbScorer(model: NaiveBayes, tokens: number[][]): (doc: number) => number {
  return (doc) => {
    let spam = model.logPrior[1];
    let ham = model.logPrior[0];
    for (const token of tokens[doc] as number[]) {
      spam += model.logLikelihood[1][token] as number;
      ham += model.logLikelihood[0][token] as number;
    }
    return 1 / (1 + Math.exp(Math.max(-700, Math.min(700, ham - spam))));
  };
}

interface Metrics {
  n: number;
  accuracy: number;
  precision: number;
  recall: number;
  f1: number;
  mcc: number;
  auc: number;
}

function auc(pairs: (readonly [number, number])[]): number {
  const sorted = [...pairs].sort((a, b) => a[0] - b[0]);
  let rankSum = 0;
  let positives = 0;
  sorted.forEach(([, label], rank) => {
    if (label === 1) {
      rankSum += rank + 1;
      positives++;
    }
  });
  const negatives = pairs.length - positives;
  return positives && negatives ? (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives) : 0;
}

function evaluate(data: Dataset, docs: number[], score: (doc: number) => number): Metrics {
  let tp = 0;
  let fp = 0;
  let tn = 0;
  let fn = 0;
  for (const doc of docs) {
    const predicted = score(doc) >= 0.5;
    const actual = data.labels[doc] === 1;
    if (predicted && actual) tp++;
    else if (predicted) fp++;
    else if (actual) fn++;
    else tn++;
  }
  const precision = tp + fp ? tp / (tp + fp) : 0;
  const recall = tp + fn ? tp / (tp + fn) : 0;
  const denominator = Math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn));
  return {
    n: docs.length,
    accuracy: (tp + tn) / docs.length,
    precision,
    recall,
    f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0,
    mcc: denominator ? (tp * tn - fp * fn) / denominator : 0,
    auc: auc(docs.map((doc) => [score(doc), data.labels[doc] as number] as const)),
  };
}

function stratifiedSplit(
  data: Dataset,
  docs: number[],
  testShare: number,
  seed: number,
): { train: number[]; test: number[] } {
  const cells = new Map<string, number[]>();
  for (const doc of docs) {
    const row = data.rows[doc] as Row;
    const key = `${row.source}:${row.label}`;
    const cell = cells.get(key);
    if (cell) cell.push(doc);
    else cells.set(key, [doc]);
  }
  const random = mulberry32(seed);
  const train: number[] = [];
  const test: number[] = [];
  for (const key of [...cells.keys()].sort()) {
    const cell = shuffle([...(cells.get(key) as number[])], random);
    const cut = Math.round(cell.length * testShare);
    test.push(...cell.slice(0, cut));
    train.push(...cell.slice(cut));
  }
  return { train: train.sort((a, b) => a - b), test: test.sort((a, b) => a - b) };
}

function format(metrics: Metrics): string {
  const f = (x: number) => x.toFixed(4);
  return `${String(metrics.n).padStart(6)} | ${f(metrics.accuracy)} | ${f(metrics.precision)} | ${f(metrics.recall)} | ${f(metrics.f1)} | ${f(metrics.mcc)} | auc ${f(metrics.auc)}`;
}

function main(): void {
  const dataPath = resolve(REPO_ROOT, argument('--data') ?? '../shared/data/text/train.jsonl.gz');
  const outPath = resolve(__dirname, '..', argument('--out') ?? 'model/text-model.bin');
  const started = Date.now();
  const data = loadDataset(dataPath);
  console.log(
    `loaded ${data.rows.length} texts, ${data.indices.length} feature entries in ${Date.now() - started} ms`,
  );
  const tokens = data.rows.map(nbTokens);

  const all = data.rows.map((_, doc) => doc);
  const split = stratifiedSplit(data, all, 0.2, SEED);
  const splits: { name: string; train: number[]; test: number[] }[] = [
    { name: 'held-out 20% (stratified)', ...split },
    ...['spamassassin', 'enron', 'youtube'].map((group) => ({
      name: `leave out ${group}`,
      train: all.filter((doc) => data.groups[doc] !== group),
      test: all.filter((doc) => data.groups[doc] === group),
    })),
  ];

  const results: Record<string, { model: Metrics & { threshold: number }; naiveBayes: Metrics }> = {};
  console.log(
    '\nsplit                      | model       |      n | accuracy | precision | recall | F1 | MCC',
  );
  const only = argument('--only')?.split(',');
  for (const { name, train, test } of splits) {
    if (only && !only.some((part) => name.includes(part))) continue;
    const fitted = fit(data, train, SEED);
    const model = { ...evaluate(data, test, scorer(data, fitted.model)), threshold: fitted.threshold };
    const naiveBayes = evaluate(data, test, nbScorer(trainNaiveBayes(data, train, tokens), tokens));
    results[name] = { model, naiveBayes };
    console.log(`${name.padEnd(26)} | logistic    | ${format(model)} | t ${model.threshold.toFixed(2)}`);
    console.log(`${name.padEnd(26)} | naive Bayes | ${format(naiveBayes)}`);
  }

  if (process.argv.includes('--no-write')) {
    console.log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return;
  }
  const { model: final, threshold } = fit(data, all, SEED);
  console.log(`final threshold ${threshold.toFixed(2)} (tuned on the training sources only)`);
  const { weights, scale } = quantise(final);
  const file = encodeModel(header(final, scale, results), weights);
  if (!process.argv.includes('--no-write')) {
    writeFileSync(outPath, file);
    console.log(`\nwrote ${outPath} (${statSync(outPath).size} bytes)`);
  }
  console.log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

main();
