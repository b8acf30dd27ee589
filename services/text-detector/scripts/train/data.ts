import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { modelInput } from '../../src/domain/check-text';
import { FeatureExtractor, type FeatureSpace } from '../../src/domain/model/extractor';
import { normaliseText } from '../../src/domain/normalise';
import { runRules } from '../../src/domain/rules';

/**
 * One labelled text of the training corpus (read by default from ../shared/data/text/; also what `feedback
 * export` writes).
 */
export interface Row {
  id: string;
  source: string;
  title: string;
  body: string;
  label: 'spam' | 'ham';
  /** ISO 639-1 code; absent in train.jsonl.gz (English) and possibly in extra files (then: detected). */
  lang?: string;
  translated?: boolean;
}

/** The rows with their feature vectors, flat (CSR) so that 50,000 texts fit in a few arrays. */
export interface Dataset {
  rows: Row[];
  /** The corpus part a row comes from: `spamassassin/easy-ham-1` → `spamassassin`. */
  groups: string[];
  languages: string[];
  labels: Uint8Array;
  offsets: Int32Array;
  indices: Int32Array;
  values: Float32Array;
  /** The language the service detects for each row (what calibration and familiarity see at check time). */
  detected: (string | null)[];
}

export function readRows(path: string): Row[] {
  const raw = readFileSync(path);
  const text = path.endsWith('.gz') ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, i) => {
      const row = JSON.parse(line) as Row;
      if (typeof row.body !== 'string' || (row.label !== 'spam' && row.label !== 'ham'))
        throw new Error(`${path}:${i + 1}: not a training row (needs body and label spam|ham)`);
      return restoreLinks({
        ...row,
        title: row.title ?? '',
        source: row.source ?? 'extra',
        id: row.id ?? `${path}:${i}`,
      });
    });
}

/**
 * The mail-like ham of extra2.jsonl.gz: newsletters, and the transactional mails that forums, shops and SaaS
 * products send (sign-up, password reset, order, shipment, notification). The figures name them apart (each
 * has limits of its own), and each gets a model trained without it.
 */
export const MAIL_LIKE_HAM = new Set([
  'bitcoinops-newsletter',
  'dataisplural-newsletter',
  'discourse-mail',
  'prestashop-mail',
  'phpbb-de-mail',
  'lemmy-mail',
  'postmark-mail',
]);

/** The phishing and scam sources (real e-mail spam) whose recall the card reports on its own line. */
export const SCAM_MAIL = new Set([
  'mailinglist-spam',
  'mailinglist-spam2',
  'phishingpot',
  'spamarchive',
  'blacklisted-emails',
]);

/**
 * Filled templates (extra2.jsonl.gz): the products' own wording with values (forum, shop and person names,
 * products) invented from small pools shared by all of them. One group together, so a value of the pools
 * is one group's artefact and gets no weight (see RECIPE.vocabGroups), and their rows share one cell of the
 * sample weights per language: together they weigh as one small source.
 */
const FILLED_TEMPLATES = new Set([
  'discourse-mail',
  'prestashop-mail',
  'phpbb-de-mail',
  'lemmy-mail',
  'postmark-mail',
]);

/** The corpus a source belongs to: `spamassassin/easy-ham-1` → `spamassassin`; filled templates → `templates`. */
export const groupOf = (source: string): string =>
  FILLED_TEMPLATES.has(source) ? 'templates' : (source.split('/')[0] ?? source);

/**
 * The tweet corpora's publishers replaced every link with a bare `http`. On Twitter every link is a t.co
 * link, and that is what the service sees in real posts, so such links are written back as a t.co link
 * (a made-up, deterministic path): otherwise the rules never see a link in German and French tweets and the
 * model learns that a shortener means spam.
 */
const LINKS_REPLACED_BY_HTTP = new Set(['sb10k', 'deft2017']);
const BARE_HTTP = /(^|\s)http(?=\s|$)/g;

function restoreLinks(row: Row): Row {
  if (!LINKS_REPLACED_BY_HTTP.has(row.source)) return row;
  const random = mulberry32(
    Array.from(row.id).reduce((hash, c) => Math.imul(hash ^ c.charCodeAt(0), 16777619), 2166136261),
  );
  const path = () =>
    Math.floor(random() * 36 ** 10)
      .toString(36)
      .padStart(10, '0');
  return {
    ...row,
    body: row.body.replace(BARE_HTTP, (_match, before: string) => `${before}https://t.co/${path()}`),
  };
}

export function buildDataset(
  rows: Row[],
  space: FeatureSpace,
  detect: (text: string) => string | null,
): Dataset {
  const extractor = new FeatureExtractor(space);
  const offsets = new Int32Array(rows.length + 1);
  const chunksI: Int32Array[] = [];
  const chunksV: Float32Array[] = [];
  let total = 0;
  const detected: (string | null)[] = [];
  rows.forEach((row, i) => {
    // Exactly what the service does with a check request before the model sees it.
    const normalised = normaliseText({ title: row.title, body: row.body });
    const { text, findings } = runRules(normalised);
    detected.push(detect(text));
    const { vector } = extractor.extract(modelInput(normalised, findings));
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
    languages: rows.map((row, i) => row.lang ?? detected[i] ?? 'unknown'),
    labels: Uint8Array.from(rows, (row) => (row.label === 'spam' ? 1 : 0)),
    offsets,
    indices,
    values,
    detected,
  };
}

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

/** The rows of each (source, language, label) cell, shuffled, cells in a fixed order. */
function shuffledCells(data: Dataset, docs: number[], seed: number): number[][] {
  const cells = new Map<string, number[]>();
  for (const doc of docs) {
    const row = data.rows[doc] as Row;
    const key = `${row.source}:${data.languages[doc] as string}:${row.label}`;
    const cell = cells.get(key);
    if (cell) cell.push(doc);
    else cells.set(key, [doc]);
  }
  const random = mulberry32(seed);
  return [...cells.keys()].sort().map((key) => shuffle([...(cells.get(key) as number[])], random));
}

/** A split stratified by source, language and label: each cell gives `testShare` of its rows to the test. */
export function stratifiedSplit(
  data: Dataset,
  docs: number[],
  testShare: number,
  seed: number,
): { train: number[]; test: number[] } {
  const train: number[] = [];
  const test: number[] = [];
  for (const cell of shuffledCells(data, docs, seed)) {
    const cut = Math.round(cell.length * testShare);
    test.push(...cell.slice(0, cut));
    train.push(...cell.slice(cut));
  }
  return { train: train.sort((a, b) => a - b), test: test.sort((a, b) => a - b) };
}

/** k folds stratified by source, language and label (each cell dealt out in turn). */
export function stratifiedFolds(data: Dataset, docs: number[], k: number, seed: number): number[][] {
  const folds: number[][] = Array.from({ length: k }, () => []);
  let next = 0;
  for (const cell of shuffledCells(data, docs, seed))
    for (const doc of cell) (folds[next++ % k] as number[]).push(doc);
  return folds.map((fold) => fold.sort((a, b) => a - b));
}
