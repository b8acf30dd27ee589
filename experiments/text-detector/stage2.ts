/**
 * Experiment (not part of the service or of the training command): a small non-linear second stage on top
 * of the linear margin, for the `spam` verdict only.
 *
 * Input: the JSON lines of `margins.ts --out f` (each out-of-fold ('oof') and held-out ('test') margin with
 * its doc index). Docs map to rows exactly as in margins.ts: readRows(train.jsonl.gz) with lang 'en', then
 * readRows(extra.jsonl.gz).
 *
 * Per doc: a few dense features from the raw title and body plus the margin and the detected-language key.
 * Gradient-boosted trees (depth 1-3, log loss, histogram splits on quantile bins), fitted ON THE OOF ROWS
 * ONLY. An inner k-fold cross-validation over the oof rows gives out-of-fold stage-2 scores; each language
 * key's cut is set on those with the rule of fitCalibration (≥ 99 % spam, one imaginary ham, ties together).
 * The final booster (fitted on all oof rows) scores the test rows, which are only measured. Unfamiliar test
 * rows never get `spam` (as in margins.ts).
 *
 *   node --conditions=source --import tsx experiments/text-detector/stage2.ts --margins /tmp/stage2-margins.jsonl \
 *     [--features neutral|era|all|margin] [--depth 2] [--trees 200] [--rate 0.1] [--minLeaf 20] [--balance 0]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { mulberry32, readRows, shuffle, type Row } from '../../services/text-detector/scripts/train/data';
import { spamCut } from '../../services/text-detector/scripts/train/model';
import { SPAM_SOURCES } from './sources';

const argument = (name: string, fallback: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? (process.argv[at + 1] as string) : fallback;
};

interface Dumped {
  part: 'oof' | 'test';
  doc: number;
  key: string;
  label: number;
  margin: number;
  unfamiliar?: boolean;
  group?: string;
  language?: string;
}

const KEYS = ['en', 'de', 'fr', 'other'];
const SEED = Number(
  process.argv.includes('--seed') ? process.argv[process.argv.indexOf('--seed') + 1] : 20261125,
);

// ---------------------------------------------------------------- features

const LINK = /\b(?:https?:\/\/|www\.)[^\s<>"'()[\]{}]{1,2000}/gi;
const HOST = /^(?:https?:\/\/)?([^/?#:]{1,253})/i;
const SHORTENER =
  /^(?:bit\.ly|bitly\.com|tinyurl\.com|goo\.gl|t\.co|ow\.ly|is\.gd|buff\.ly|rebrand\.ly|cutt\.ly|shorturl\.at|tiny\.cc|rb\.gy|s\.id|t\.ly|lnkd\.in|v\.gd|clck\.ru|adf\.ly|linktr\.ee)$/i;
const MONEY = /(?:[$€£]\s?\d|\d[\d.,]*\s?(?:[$€£]|usd|eur|euro|dollars?|btc|usdt)\b)/gi;
const URGENCY =
  /\b(?:urgent|immediately|within \d+ (?:hours?|days?)|24 hours|48 hours|expire[sd]?|suspend(?:ed)?|verify|verification|confirm|locked|unusual|last chance|act now|limited time|today only|final notice|dringend|sofort|bestätigen|urgence|immédiatement|vérifier|confirmer)\b/gi;
const ACCOUNT =
  /\b(?:account|password|login|log in|sign in|wallet|invoice|payment|refund|delivery|package|parcel|konto|passwort|compte|mot de passe|colis)\b/gi;
const HTML = /<\/?(?:html|body|div|span|table|td|tr|p|br|a|img|font|style|center)\b[^>]*>/gi;
const EMAIL = /\b[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63})+\b/g;
const LIST_FOOTER =
  /\b(?:unsubscribe|mailing list|listinfo|mailman|newsletter|you are receiving|you received this|abmelden|désabonner|désinscri)/gi;
const QUOTED_LINE = /^\s*>/gm;
const HEADER_LINE = /^(?:from|to|subject|date|sent|cc|url):\s/gim;
const SIGNATURE = /^-- ?$/m;
/** Corpus/era artefacts: Enron's tokenised text ("enron . com", "don ' t"), years, crypto. */
const TOKENISED = / [.,:;?!'] /g;
const YEAR = /\b(?:19[89]\d|20[0-3]\d)\b/g;
const CRYPTO = /\b(?:crypto|bitcoin|btc|usdt|ethereum|eth|token|airdrop|nft|blockchain|binance|metamask)\b/gi;

const count = (text: string, pattern: RegExp) => {
  let n = 0;
  for (const _ of text.matchAll(pattern)) n++;
  return n;
};

/** Features that say something about the text itself (still possibly corpus-flavoured, see the report). */
const NEUTRAL = [
  'margin',
  'key',
  'logLength',
  'titleLength',
  'lines',
  'links',
  'domains',
  'shorteners',
  'linkShare',
  'upperShare',
  'digitShare',
  'html',
  'money',
  'urgency',
  'account',
  'exclamations',
  'emails',
  'listFooter',
  'quoted',
  'headerLines',
  'signature',
] as const;
/** Features that mostly tell the era or the corpus (2000-2002 Enron/SpamAssassin vs 2024-2025 phishing). */
const ERA = ['httpsShare', 'tokenised', 'yearMax', 'yearRecent', 'crypto', 'nonAscii'] as const;
type Feature = (typeof NEUTRAL)[number] | (typeof ERA)[number];

function featuresOf(row: Row, margin: number, key: string): Record<Feature, number> {
  const title = row.title ?? '';
  const text = `${title}\n${row.body}`.slice(0, 50_000);
  const letters = count(text, /\p{L}/gu) || 1;
  const upper = count(text, /\p{Lu}/gu);
  const digits = count(text, /\d/g);
  let links = 0;
  let https = 0;
  let linkCharacters = 0;
  let shorteners = 0;
  const domains = new Set<string>();
  for (const match of text.matchAll(LINK)) {
    links++;
    linkCharacters += match[0].length;
    if (/^https:/i.test(match[0])) https++;
    const host = HOST.exec(match[0])?.[1]
      ?.toLowerCase()
      .replace(/^www\./, '');
    if (host) {
      domains.add(host.split('.').slice(-2).join('.'));
      if (SHORTENER.test(host)) shorteners++;
    }
  }
  const years = [...text.matchAll(YEAR)].map((m) => Number(m[0]));
  const length = text.length || 1;
  return {
    margin,
    key: KEYS.indexOf(key),
    logLength: Math.log1p(text.length),
    titleLength: Math.log1p(title.length),
    lines: Math.log1p(count(text, /\n/g)),
    links,
    domains: domains.size,
    shorteners,
    linkShare: linkCharacters / length,
    upperShare: upper / letters,
    digitShare: digits / length,
    html: count(text, HTML),
    money: count(text, MONEY),
    urgency: count(text, URGENCY),
    account: count(text, ACCOUNT),
    exclamations: count(text, /!/g),
    emails: count(text, EMAIL),
    listFooter: count(text, LIST_FOOTER),
    quoted: count(text, QUOTED_LINE),
    headerLines: count(text, HEADER_LINE),
    signature: SIGNATURE.test(text) ? 1 : 0,
    httpsShare: links === 0 ? -1 : https / links,
    tokenised: count(text, TOKENISED) / length,
    yearMax: years.length === 0 ? 0 : Math.max(...years),
    yearRecent: years.some((y) => y >= 2010) ? 1 : 0,
    crypto: count(text, CRYPTO),
    nonAscii: count(text, /[\u0080-\uffff]/g) / length,
  };
}

// ---------------------------------------------------------------- boosted trees

interface Node {
  feature: number;
  bin: number; // goes left when bin <= this
  left: Node | number;
  right: Node | number;
}

interface Booster {
  base: number;
  trees: (Node | number)[];
  edges: Float64Array[];
}

interface Params {
  depth: number;
  trees: number;
  rate: number;
  minLeaf: number; // minimum hessian sum of a child
  lambda: number;
  /** Boost from the Platt-scaled linear margin (trees learn corrections) instead of from the base rate. */
  offset: boolean;
}

const BINS = 255;

/** Quantile bin edges per feature from the fitting rows; bin b holds values in (edges[b-1], edges[b]]. */
function binEdges(x: Float64Array[], rows: number[]): Float64Array[] {
  return x.map((column) => {
    const values = rows.map((r) => column[r] as number).sort((a, b) => a - b);
    const edges: number[] = [];
    for (let b = 1; b < BINS; b++) {
      const v = values[Math.floor((b * values.length) / BINS)] as number;
      if (edges.length === 0 || v > (edges[edges.length - 1] as number)) edges.push(v);
    }
    return Float64Array.from(edges);
  });
}

function binOf(edges: Float64Array, value: number): number {
  let lo = 0;
  let hi = edges.length; // answer in [0, edges.length]
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (value <= (edges[mid] as number)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function fitBooster(
  x: Float64Array[],
  labels: Uint8Array,
  weights: Float64Array,
  rows: number[],
  params: Params,
  offset: Float64Array,
): Booster {
  const features = x.length;
  const edges = binEdges(x, rows);
  const n = rows.length;
  const binned = x.map((column, f) => {
    const out = new Uint8Array(n);
    rows.forEach((r, i) => (out[i] = binOf(edges[f] as Float64Array, column[r] as number)));
    return out;
  });
  let positive = 0;
  let total = 0;
  rows.forEach((r) => {
    positive += (labels[r] as number) * (weights[r] as number);
    total += weights[r] as number;
  });
  const base = Math.log(positive / (total - positive));
  const useOffset = params.offset;
  const score = Float64Array.from(rows, (r) => (useOffset ? (offset[r] as number) : base));
  const grad = new Float64Array(n);
  const hess = new Float64Array(n);
  const trees: (Node | number)[] = [];
  const gh = new Float64Array(BINS * 2);

  const grow = (members: Int32Array, level: number): Node | number => {
    let G = 0;
    let H = 0;
    for (const i of members) {
      G += grad[i] as number;
      H += hess[i] as number;
    }
    const leaf = (-G / (H + params.lambda)) * params.rate;
    if (level >= params.depth || H < 2 * params.minLeaf) return leaf;
    const parentScore = (G * G) / (H + params.lambda);
    let best = { gain: 1e-9, feature: -1, bin: -1 };
    for (let f = 0; f < features; f++) {
      gh.fill(0);
      const column = binned[f] as Uint8Array;
      for (const i of members) {
        const b = column[i] as number;
        gh[2 * b] = (gh[2 * b] as number) + (grad[i] as number);
        gh[2 * b + 1] = (gh[2 * b + 1] as number) + (hess[i] as number);
      }
      let gl = 0;
      let hl = 0;
      const last = (edges[f] as Float64Array).length;
      for (let b = 0; b < last; b++) {
        gl += gh[2 * b] as number;
        hl += gh[2 * b + 1] as number;
        const hr = H - hl;
        if (hl < params.minLeaf || hr < params.minLeaf) continue;
        const gr = G - gl;
        const gain = (gl * gl) / (hl + params.lambda) + (gr * gr) / (hr + params.lambda) - parentScore;
        if (gain > best.gain) best = { gain, feature: f, bin: b };
      }
    }
    if (best.feature < 0) return leaf;
    const column = binned[best.feature] as Uint8Array;
    const left = members.filter((i) => (column[i] as number) <= best.bin);
    const right = members.filter((i) => (column[i] as number) > best.bin);
    return {
      feature: best.feature,
      bin: best.bin,
      left: grow(left, level + 1),
      right: grow(right, level + 1),
    };
  };

  const all = Int32Array.from({ length: n }, (_, i) => i);
  for (let t = 0; t < params.trees; t++) {
    for (let i = 0; i < n; i++) {
      const r = rows[i] as number;
      const p = 1 / (1 + Math.exp(-(score[i] as number)));
      const w = weights[r] as number;
      grad[i] = (p - (labels[r] as number)) * w;
      hess[i] = Math.max(p * (1 - p), 1e-6) * w;
    }
    const tree = grow(all, 0);
    trees.push(tree);
    for (let i = 0; i < n; i++) score[i] = (score[i] as number) + walk(tree, (f) => binned[f]?.[i] as number);
  }
  return { base: useOffset ? 0 : base, trees, edges };
}

function walk(tree: Node | number, binAt: (feature: number) => number): number {
  let node = tree;
  while (typeof node !== 'number') node = binAt(node.feature) <= node.bin ? node.left : node.right;
  return node;
}

function predict(
  booster: Booster,
  x: Float64Array[],
  r: number,
  offset: Float64Array,
  useOffset: boolean,
): number {
  const bins = x.map((column, f) => binOf(booster.edges[f] as Float64Array, column[r] as number));
  let s = booster.base + (useOffset ? (offset[r] as number) : 0);
  for (const tree of booster.trees) s += walk(tree, (f) => bins[f] as number);
  return s;
}

// ---------------------------------------------------------------- cuts and figures

function cutsOf(items: { key: string; label: number; z: number }[]): Map<string, number> {
  const result = new Map<string, number>();
  for (const key of KEYS)
    result.set(
      key,
      spamCut(items.filter((t) => t.key === key).map((t) => ({ z: t.z, label: t.label }))) ?? Infinity,
    );
  return result;
}

interface Scored {
  key: string;
  label: number;
  z: number;
  group: string;
  language: string;
  unfamiliar: boolean;
}

function report(name: string, items: Scored[], cut: Map<string, number>): string[] {
  const spam = (t: Scored) => !t.unfamiliar && t.z >= (cut.get(t.key) ?? Infinity);
  const recall = SPAM_SOURCES.map((source) => {
    const own = items.filter((t) => t.group === source && t.label === 1);
    return `${source} ${own.filter(spam).length}/${own.length}`;
  });
  const precision = ['en', 'de', 'fr'].map((language) => {
    const flagged = items.filter((t) => t.language === language && spam(t));
    return `${language} ${flagged.filter((t) => t.label === 1).length}/${flagged.length}`;
  });
  const hamShare = ['de', 'fr', 'en'].map((language) => {
    const ham = items.filter((t) => t.language === language && t.label === 0);
    const wrong = ham.filter(spam).length;
    return `${language} ${wrong}/${ham.length} (${((100 * wrong) / ham.length).toFixed(2)} %)`;
  });
  return [
    `${name}:`,
    `  spam verdicts: ${recall.join(', ')}`,
    `  spam at or above the cut: ${precision.join(', ')}`,
    `  ham at or above the cut: ${hamShare.join(', ')}`,
  ];
}

// ---------------------------------------------------------------- main

function main(): void {
  const dump = readFileSync(argument('--margins', '/tmp/stage2-margins.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Dumped);
  const dir = resolve(__dirname, '../../../shared/data/text');
  const rows = [
    ...readRows(resolve(dir, 'train.jsonl.gz')).map((row) => ({ ...row, lang: 'en' })),
    ...readRows(resolve(dir, 'extra.jsonl.gz')),
  ];
  const set = argument('--features', 'neutral');
  const chosen: Feature[] =
    set === 'margin'
      ? ['margin', 'key']
      : set === 'era'
        ? [...NEUTRAL, ...ERA]
        : set === 'neutral'
          ? [...NEUTRAL]
          : (set.split('+') as Feature[]);
  const params: Params = {
    depth: Number(argument('--depth', '2')),
    trees: Number(argument('--trees', '200')),
    rate: Number(argument('--rate', '0.1')),
    minLeaf: Number(argument('--minLeaf', '20')),
    lambda: Number(argument('--lambda', '1')),
    offset: argument('--offset', '1') === '1',
  };
  const innerFolds = Number(argument('--folds', '5'));
  const balance = Number(argument('--balance', '0'));

  const n = dump.length;
  const x = chosen.map(() => new Float64Array(n));
  const labels = new Uint8Array(n);
  dump.forEach((d, i) => {
    const row = rows[d.doc] as Row;
    const f = featuresOf(row, d.margin, d.key);
    chosen.forEach((name, j) => ((x[j] as Float64Array)[i] = f[name]));
    labels[i] = d.label;
  });
  const groupOf = (i: number) => {
    const d = dump[i] as Dumped;
    const row = rows[d.doc] as Row;
    return d.group ?? `${row.lang as string} ${row.source}`;
  };
  const languageOf = (i: number) =>
    (dump[i] as Dumped).language ?? (rows[(dump[i] as Dumped).doc] as Row).lang ?? 'unknown';
  const oof = dump.map((d, i) => (d.part === 'oof' ? i : -1)).filter((i) => i >= 0);
  const test = dump.map((d, i) => (d.part === 'test' ? i : -1)).filter((i) => i >= 0);

  // Sample weights 1 / cell size ^ balance (cell: source, language, label), mean 1 over the oof rows.
  const cellOf = (i: number) => `${groupOf(i)}:${labels[i] as number}`;
  const cellSize = new Map<string, number>();
  for (const i of oof) cellSize.set(cellOf(i), (cellSize.get(cellOf(i)) ?? 0) + 1);
  const weights = new Float64Array(n);
  for (const i of oof) weights[i] = 1 / Math.pow(cellSize.get(cellOf(i)) as number, balance);
  const meanWeight = oof.reduce((s, i) => s + (weights[i] as number), 0) / oof.length;
  for (const i of oof) weights[i] = (weights[i] as number) / meanWeight;

  // Inner folds over the oof rows, stratified by cell.
  const cells = new Map<string, number[]>();
  for (const i of oof) cells.set(cellOf(i), [...(cells.get(cellOf(i)) ?? []), i]);
  const random = mulberry32(SEED);
  const folds: number[][] = Array.from({ length: innerFolds }, () => []);
  let next = 0;
  for (const key of [...cells.keys()].sort())
    for (const i of shuffle([...(cells.get(key) as number[])], random))
      (folds[next++ % innerFolds] as number[]).push(i);
  // --innerBy source: leave-one-source-group-out instead (each row scored by a stage 2 that never saw its
  // corpus: enron, spamassassin, sms, youtube, phishingpot, ...); tells corpus identity from transferable cues.
  if (argument('--innerBy', 'cell') === 'source') {
    folds.length = 0;
    const bySource = new Map<string, number[]>();
    for (const i of oof) {
      const source = (rows[(dump[i] as Dumped).doc] as Row).source.split('/')[0] as string;
      bySource.set(source, [...(bySource.get(source) ?? []), i]);
    }
    for (const key of [...bySource.keys()].sort()) folds.push(bySource.get(key) as number[]);
  }

  // The offset: one slope and intercept on the linear margin, fitted on the given rows (log loss, weighted).
  const margins = Float64Array.from(dump, (d) => d.margin);
  const plattOffset = (fitRows: number[]) => {
    let a = 1;
    let b = 0;
    for (let step = 0; step < 500; step++) {
      let ga = 0;
      let gb = 0;
      let w = 0;
      for (const i of fitRows) {
        const m = margins[i] as number;
        const e = (1 / (1 + Math.exp(-(a * m + b))) - (labels[i] as number)) * (weights[i] as number);
        ga += e * m;
        gb += e;
        w += weights[i] as number;
      }
      a -= (0.5 * ga) / w;
      b -= (2 * gb) / w;
    }
    return Float64Array.from(margins, (m) => a * m + b);
  };
  const stage2Oof = new Float64Array(n);
  folds.forEach((fold, k) => {
    const inFold = new Set(fold);
    const fitRows = oof.filter((i) => !inFold.has(i));
    const offset = plattOffset(fitRows);
    const booster = fitBooster(x, labels, weights, fitRows, params, offset);
    for (const i of fold) stage2Oof[i] = predict(booster, x, i, offset, params.offset);
    process.stderr.write(`inner fold ${k + 1}/${folds.length} done\n`);
  });
  const finalOffset = plattOffset(oof);
  const final = fitBooster(x, labels, weights, oof, params, finalOffset);
  const stage2Test = new Float64Array(n);
  for (const i of test) stage2Test[i] = predict(final, x, i, finalOffset, params.offset);

  const scored = (indices: number[], z: (i: number) => number): Scored[] =>
    indices.map((i) => ({
      key: (dump[i] as Dumped).key,
      label: labels[i] as number,
      z: z(i),
      group: groupOf(i),
      language: languageOf(i),
      unfamiliar: (dump[i] as Dumped).unfamiliar === true,
    }));
  const baseOof = scored(oof, (i) => (dump[i] as Dumped).margin);
  const baseTest = scored(test, (i) => (dump[i] as Dumped).margin);
  const baseCut = cutsOf(baseOof);
  const newOof = scored(oof, (i) => stage2Oof[i] as number);
  const newTest = scored(test, (i) => stage2Test[i] as number);
  const newCut = cutsOf(newOof);
  const fmt = (cut: Map<string, number>) => [...cut].map(([k, v]) => `${k} ${v.toFixed(3)}`).join(', ');

  const logLoss = (items: Scored[]) =>
    items.reduce((s, t) => s + Math.log1p(Math.exp(t.label === 1 ? -t.z : t.z)), 0) / items.length;
  console.log(
    `stage 2: features=${set} (${chosen.join(',')}) depth=${params.depth} trees=${params.trees} rate=${params.rate} minLeaf=${params.minLeaf} lambda=${params.lambda} offset=${params.offset} balance=${balance} innerFolds=${argument('--innerBy', 'cell') === 'source' ? 'by source' : innerFolds} seed=${SEED}`,
  );
  console.log(`baseline cuts (oof margins): ${fmt(baseCut)}`);
  console.log(`stage-2 cuts (inner-oof scores): ${fmt(newCut)}`);
  console.log(
    `stage-2 inner-oof log loss ${logLoss(newOof).toFixed(4)}, test log loss ${logLoss(newTest).toFixed(4)}`,
  );
  for (const line of [
    ...report('OOF  baseline (linear margin, cut on oof)', baseOof, baseCut),
    ...report('OOF  stage 2 (inner-oof scores, cut on them)', newOof, newCut),
    ...report('TEST baseline (linear margin)', baseTest, baseCut),
    ...report('TEST stage 2', newTest, newCut),
  ])
    console.log(line);

  const dumpTo = argument('--dump', '');
  if (dumpTo !== '')
    writeFileSync(
      dumpTo,
      `${[
        ...oof.map((i) => ({ part: 'oof', i, z: stage2Oof[i] })),
        ...test.map((i) => ({ part: 'test', i, z: stage2Test[i] })),
      ]
        .map(({ part, i, z }) =>
          JSON.stringify({
            part,
            doc: (dump[i] as Dumped).doc,
            stage2: z,
            cut: newCut.get((dump[i] as Dumped).key),
          }),
        )
        .join('\n')}\n`,
    );

  // Split usage of the final booster: which features it leans on.
  const uses = new Map<string, number>();
  const visit = (node: Node | number) => {
    if (typeof node === 'number') return;
    const name = chosen[node.feature] as string;
    uses.set(name, (uses.get(name) ?? 0) + 1);
    visit(node.left);
    visit(node.right);
  };
  final.trees.forEach(visit);
  console.log(
    `splits per feature: ${[...uses]
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
}

main();
