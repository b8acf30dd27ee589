/**
 * Trains the text model on ../shared/data/text/train.jsonl.gz (relative to the repository root), prints
 * metrics on a held-out split and on three leave-one-source-out splits next to a multinomial naive Bayes
 * baseline, then trains on everything and writes model/text-model.bin.
 *
 * Deterministic: a fixed seed drives the split and the shuffling; single-threaded.
 * Usage: pnpm --filter @spam-check/text-detector train [--data <path>] [--out <path>] [--no-write]
 *        [--only held,leave] (evaluate only the splits whose name contains one of these)
 *        [--set name=value,...] (experiment with the OPTIONS below; the committed model uses the defaults)
 *        [--inner] (only model selection: MCC inside each split's training data, see innerValidation)
 * Nothing is tuned on a test split: the held-out 20 % and each left-out source are only scored.
 */
import { readFileSync, writeFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { encodeModel, loadModel, type ModelHeader } from '../src/domain/model/classifier';
import {
  FeatureExtractor,
  genreTokenIndices,
  normaliseForModel,
  words,
  type FeatureSpace,
} from '../src/domain/model/features';

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
  /** Keep only features seen in at least this many training domains (1 = all features). */
  vocabGroups: 2,
  /** Documents a feature needs within one group to count as seen there. */
  vocabDocs: 3,
  /** 1 = choose the decision threshold on a validation part of the training sources (mean per-source MCC). */
  tuneThreshold: 0,
  /**
   * 1 = one intercept per source group (domain) while training, the model keeps their mean; 2 = then refits
   * one; 3 = then refits one per genre (needs genreLength).
   */
  groupBias: 0,
  /** Group DRO: step of the exponentiated update of the (source group, label) cell weights (0 = off). */
  dro: 0,
  /** Documents between two DRO updates. */
  droBatch: 512,
  /** 1 = drop features whose smoothed log-odds changes sign between training domains with support. */
  signVocab: 0,
  /** Log-odds within this distance of 0 do not vote in signVocab. */
  signMargin: 0,
  /** See FeatureSpace.genreLength (0 = no genre) and genreCopy (blocks copied per genre). */
  genreLength: 0,
  genreCopy: 0,
  /** Norm of a title-word block of its own (-1 = shared word block); titleInText 0 = title not in the text. */
  titleNorm: -1,
  titleInText: 1,
  /** 1 = finer domains (see domainOf). */
  fineGroups: 0,
  /** Weights may not fall below -negCap (ham evidence is the most source-specific); -1 = no bound. */
  negCap: -1,
  /** Extra L2 per feature: srcL2 × (largest log ratio of its document rates between training groups)². */
  srcL2: 0,
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
  ...(OPTIONS.titleNorm >= 0 ? { titleNorm: OPTIONS.titleNorm } : {}),
  ...(OPTIONS.titleInText ? {} : { titleInText: false }),
  ...(OPTIONS.genreLength > 0
    ? { genreLength: OPTIONS.genreLength, ...(OPTIONS.genreCopy ? { genreCopy: OPTIONS.genreCopy } : {}) }
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
  /** The domains of groupBias, the vocabulary filters and srcL2: source groups, or finer with fineGroups. */
  domains: string[];
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

/**
 * With fineGroups, every source that holds both labels is a domain of its own (the Enron mailboxes, the
 * YouTube videos); SpamAssassin's parts hold one label each, so it stays one domain.
 */
function domainOf(source: string): string {
  const group = groupOf(source);
  return OPTIONS.fineGroups && group !== 'spamassassin' ? source : group;
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
    domains: rows.map((row) => domainOf(row.source)),
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
function trainLogistic(
  data: Dataset,
  docs: number[],
  seed: number,
  keep: Uint8Array,
  featureL2?: Float32Array,
): LinearModel {
  const genreTokens = new Set(genreTokenIndices(SPACE));
  const size = 1 << BITS;
  const weights = new Float32Array(size);
  const squares = new Float32Array(size).fill(1e-6);
  // With groupBias, each source group has its own intercept while training (so the shared weights learn
  // what separates spam from ham within a source, not which source is spammier); the model keeps their mean.
  const groupNames = [...new Set(docs.map((doc) => data.domains[doc] as string))].sort();
  const groupOf = new Map(groupNames.map((name, i) => [name, OPTIONS.groupBias ? i : 0]));
  const biases = new Float64Array(groupNames.length);
  const biasSquares = new Float64Array(groupNames.length).fill(1e-6);
  const weightOf = sampleWeights(data, docs);
  // Group DRO: cell weights q (start: the cells' share of the base weights), each sample's weight is its base
  // weight times q / share; every droBatch documents q moves toward the cells with the highest loss.
  const cellNames = [
    ...new Set(docs.map((doc) => `${data.groups[doc] as string}:${data.labels[doc] as number}`)),
  ].sort();
  const cellIndex = new Map(cellNames.map((name, i) => [name, i]));
  const cellOf = Int32Array.from(
    docs,
    (doc) => cellIndex.get(`${data.groups[doc] as string}:${data.labels[doc] as number}`) as number,
  );
  const share = new Float64Array(cellNames.length);
  docs.forEach((_, k) => {
    const cell = cellOf[k] as number;
    share[cell] = (share[cell] as number) + (weightOf[k] as number);
  });
  const totalWeight = share.reduce((a, b) => a + b, 0);
  for (let c = 0; c < share.length; c++) share[c] = (share[c] as number) / totalWeight;
  const q = Float64Array.from(share);
  const batchLoss = new Float64Array(cellNames.length);
  const batchWeight = new Float64Array(cellNames.length);
  let inBatch = 0;
  const order = docs.map((_, k) => k);
  const random = mulberry32(seed);
  for (let epoch = 0; epoch < OPTIONS.epochs; epoch++) {
    shuffle(order, random);
    for (const k of order) {
      const doc = docs[k] as number;
      const from = data.offsets[doc] as number;
      const to = data.offsets[doc + 1] as number;
      const group = groupOf.get(data.domains[doc] as string) as number;
      let z = biases[group] as number;
      for (let p = from; p < to; p++)
        z += (weights[data.indices[p] as number] as number) * (data.values[p] as number);
      // Weights of features outside the kept vocabulary stay 0, so they never count.
      const probability = 1 / (1 + Math.exp(-z));
      const label = data.labels[doc] as number;
      const multiplier = OPTIONS.dro
        ? (q[cellOf[k] as number] as number) / (share[cellOf[k] as number] as number)
        : 1;
      const error = (probability - label) * (weightOf[k] as number) * multiplier;
      if (OPTIONS.dro) {
        const cell = cellOf[k] as number;
        const loss = -Math.log(Math.max(1e-12, label === 1 ? probability : 1 - probability));
        batchLoss[cell] = (batchLoss[cell] as number) + loss * (weightOf[k] as number);
        batchWeight[cell] = (batchWeight[cell] as number) + (weightOf[k] as number);
        if (++inBatch >= OPTIONS.droBatch) {
          let sum = 0;
          for (let c = 0; c < q.length; c++) {
            if ((batchWeight[c] as number) > 0)
              q[c] =
                (q[c] as number) *
                Math.exp((OPTIONS.dro * (batchLoss[c] as number)) / (batchWeight[c] as number));
            sum += q[c] as number;
          }
          for (let c = 0; c < q.length; c++) q[c] = (q[c] as number) / sum;
          batchLoss.fill(0);
          batchWeight.fill(0);
          inBatch = 0;
        }
      }
      for (let p = from; p < to; p++) {
        const index = data.indices[p] as number;
        if (keep[index] === 0 || (OPTIONS.groupBias === 3 && genreTokens.has(index))) continue;
        const w = weights[index] as number;
        const l2 = featureL2 ? OPTIONS.l2 + (featureL2[index] as number) : OPTIONS.l2;
        const gradient = error * (data.values[p] as number) + l2 * w;
        const g2 = (squares[index] as number) + gradient * gradient;
        squares[index] = g2;
        let next = w - (OPTIONS.learningRate * gradient) / Math.sqrt(g2);
        if (OPTIONS.negCap >= 0 && next < -OPTIONS.negCap && !genreTokens.has(index)) next = -OPTIONS.negCap;
        weights[index] = next;
      }
      biasSquares[group] = (biasSquares[group] as number) + error * error;
      biases[group] =
        (biases[group] as number) - (OPTIONS.learningRate * error) / Math.sqrt(biasSquares[group]);
    }
  }
  if (OPTIONS.dro && process.env.TRAIN_DEBUG)
    console.log(
      `  dro q: ${cellNames.map((name, c) => `${name} ${(q[c] as number).toFixed(3)}`).join(', ')}`,
    );
  const used = OPTIONS.groupBias ? groupNames.length : 1;
  const bias = biases.subarray(0, used).reduce((a, b) => a + b, 0) / used;
  if (OPTIONS.groupBias < 2) return { weights, bias };
  // groupBias 2: keep the source-neutral weights, refit one intercept on all training documents (weighted);
  // groupBias 3: refit one intercept per genre instead (the genre tokens' weights; the genre is observable).
  const margins = docs.map((doc) => {
    let z = 0;
    for (let p = data.offsets[doc] as number; p < (data.offsets[doc + 1] as number); p++)
      z += (weights[data.indices[p] as number] as number) * (data.values[p] as number);
    return z;
  });
  const refit = (members: number[]): number => {
    let low = -20;
    let high = 20;
    for (let step = 0; step < 50; step++) {
      const middle = (low + high) / 2;
      let gradient = 0;
      for (const k of members) {
        const probability = 1 / (1 + Math.exp(-((margins[k] as number) + middle)));
        gradient += (probability - (data.labels[docs[k] as number] as number)) * (weightOf[k] as number);
      }
      if (gradient > 0) high = middle;
      else low = middle;
    }
    return (low + high) / 2;
  };
  const everyone = docs.map((_, k) => k);
  if (OPTIONS.groupBias === 2 || OPTIONS.genreLength <= 0) return { weights, bias: refit(everyone) };
  for (const token of genreTokenIndices(SPACE).slice(1)) {
    const members = everyone.filter((k) => {
      const doc = docs[k] as number;
      for (let p = data.offsets[doc] as number; p < (data.offsets[doc + 1] as number); p++)
        if (data.indices[p] === token) return true;
      return false;
    });
    if (members.length > 0) weights[token] = refit(members);
  }
  return { weights, bias: 0 };
}

/**
 * Per-feature extra L2 against source-predictive features: srcL2 × spread², spread = the largest difference
 * of log document rates (smoothed) between two training groups.
 */
function sourcePenalty(data: Dataset, docs: number[]): Float32Array | undefined {
  if (!OPTIONS.srcL2) return undefined;
  const size = 1 << BITS;
  const groupNames = [...new Set(docs.map((doc) => data.domains[doc] as string))].sort();
  const low = new Float32Array(size).fill(Infinity);
  const high = new Float32Array(size).fill(-Infinity);
  const df = new Uint16Array(size);
  for (const group of groupNames) {
    df.fill(0);
    let n = 0;
    for (const doc of docs) {
      if (data.domains[doc] !== group) continue;
      n++;
      for (let p = data.offsets[doc] as number; p < (data.offsets[doc + 1] as number); p++) {
        const index = data.indices[p] as number;
        if (df[index] !== 65535) df[index] = (df[index] as number) + 1;
      }
    }
    for (let i = 0; i < size; i++) {
      const rate = Math.log(((df[i] as number) + 0.5) / (n + 1));
      if (rate < (low[i] as number)) low[i] = rate;
      if (rate > (high[i] as number)) high[i] = rate;
    }
  }
  return Float32Array.from(high, (h, i) => OPTIONS.srcL2 * (h - (low[i] as number)) ** 2);
}

/**
 * The kept vocabulary: features seen (in at least vocabDocs documents) in at least vocabGroups different
 * source groups of the training documents, so the model cannot lean on one corpus's artefacts.
 */
function vocabulary(data: Dataset, docs: number[]): Uint8Array {
  const size = 1 << BITS;
  const keep = new Uint8Array(size);
  if (OPTIONS.vocabGroups <= 1) return keep.fill(1);
  const groupNames = [...new Set(docs.map((doc) => data.domains[doc] as string))].sort();
  const seenIn = new Uint8Array(size);
  const perGroup = new Uint16Array(size);
  for (const group of groupNames) {
    perGroup.fill(0);
    for (const doc of docs) {
      if (data.domains[doc] !== group) continue;
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
  if (OPTIONS.signVocab) dropSignFlips(data, docs, groupNames, keep);
  // The genre tokens are intercepts: always kept.
  if ((SPACE.genreLength ?? 0) > 0) for (const index of genreTokenIndices(SPACE).slice(1)) keep[index] = 1;
  return keep;
}

/**
 * Invariant-feature selection: drops a feature when its direction (smoothed log-odds of the document rates
 * in spam and in ham) disagrees between the training groups where it has support (vocabDocs documents).
 */
function dropSignFlips(data: Dataset, docs: number[], groupNames: string[], keep: Uint8Array): void {
  const size = 1 << BITS;
  const positive = new Uint8Array(size);
  const negative = new Uint8Array(size);
  const spam = new Uint16Array(size);
  const ham = new Uint16Array(size);
  for (const group of groupNames) {
    spam.fill(0);
    ham.fill(0);
    let spamDocs = 0;
    let hamDocs = 0;
    for (const doc of docs) {
      if (data.domains[doc] !== group) continue;
      const counts = data.labels[doc] === 1 ? spam : ham;
      if (data.labels[doc] === 1) spamDocs++;
      else hamDocs++;
      for (let p = data.offsets[doc] as number; p < (data.offsets[doc + 1] as number); p++) {
        const index = data.indices[p] as number;
        if (counts[index] !== 65535) counts[index] = (counts[index] as number) + 1;
      }
    }
    for (let i = 0; i < size; i++) {
      if (keep[i] === 0) continue;
      const s = spam[i] as number;
      const h = ham[i] as number;
      if (s + h < OPTIONS.vocabDocs) continue;
      const logOdds = Math.log((s + 0.5) / (spamDocs + 1)) - Math.log((h + 0.5) / (hamDocs + 1));
      if (logOdds > OPTIONS.signMargin) positive[i] = 1;
      else if (logOdds < -OPTIONS.signMargin) negative[i] = 1;
    }
  }
  let dropped = 0;
  for (let i = 0; i < size; i++)
    if (keep[i] === 1 && positive[i] === 1 && negative[i] === 1) {
      keep[i] = 0;
      dropped++;
    }
  if (process.env.TRAIN_DEBUG) console.log(`  sign vocabulary: dropped ${dropped} features`);
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
    const model = trainLogistic(
      data,
      inner.train,
      seed,
      vocabulary(data, inner.train),
      sourcePenalty(data, inner.train),
    );
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
  const model = trainLogistic(data, docs, seed, vocabulary(data, docs), sourcePenalty(data, docs));
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

/**
 * Model selection inside the training data of each split (its test part is not read): MCC on each
 * leave-one-training-source-out fold and on a stratified 20 % validation part of the training data.
 * Variants are compared by these numbers only (run once per `--set`).
 */
function innerValidation(data: Dataset, splits: { name: string; train: number[] }[]): void {
  const only = argument('--only')?.split(',');
  for (const { name, train } of splits) {
    if (only && !only.some((part) => name.includes(part))) continue;
    const groups = [...new Set(train.map((doc) => data.groups[doc] as string))].sort();
    const folds = groups.map((group) => {
      const inner = train.filter((doc) => data.groups[doc] !== group);
      const test = train.filter((doc) => data.groups[doc] === group);
      return evaluate(data, test, scorer(data, fit(data, inner, SEED).model)).mcc;
    });
    const validation = stratifiedSplit(data, train, 0.2, SEED + 2);
    const inDistribution = evaluate(
      data,
      validation.test,
      scorer(data, fit(data, validation.train, SEED).model),
    ).mcc;
    const mean = folds.reduce((a, b) => a + b, 0) / folds.length;
    console.log(
      `inner | ${name.padEnd(26)} | validation 20% ${inDistribution.toFixed(4)} | leave-one-source-out ${groups
        .map((group, i) => `${group} ${(folds[i] as number).toFixed(4)}`)
        .join(', ')} | mean ${mean.toFixed(4)} | min ${Math.min(...folds).toFixed(4)}`,
    );
  }
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

  if (process.argv.includes('--inner')) {
    innerValidation(data, [...splits, { name: 'all data (final model)', train: all, test: [] }]);
    console.log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return;
  }

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
    if (process.env.TRAIN_DEBUG) {
      // Diagnostic only (never used to choose anything): the best MCC any threshold could reach on this split.
      const score = scorer(data, fitted.model);
      const scores = Float64Array.from(test, score);
      let best = -1;
      let at = 0;
      for (let t = 0.01; t < 1; t += 0.01) {
        const value = mccAt(data, test, scores, t);
        if (value > best) [best, at] = [value, t];
      }
      console.log(
        `${name.padEnd(26)} | diagnostic: best MCC of any threshold ${best.toFixed(4)} at ${at.toFixed(2)}`,
      );
    }
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
