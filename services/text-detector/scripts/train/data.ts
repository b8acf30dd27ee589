import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { FormContext, FormType } from '@spam-check/contracts';
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
  /** The form of the check (the made-up set of model/handmade has them; corpus rows get FORM_OF_SOURCE). */
  form_type?: FormType;
  author_name?: string;
  author_url?: string;
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
 * The product mails: each product's own templates and translations, filled with invented values (extra2 and
 * extra3). Each gets a model trained without it (leave-one-product-out), the honest test of how the mails
 * of a product the model never saw are judged.
 */
export const PRODUCT_MAIL = new Set([
  'discourse-mail',
  'prestashop-mail',
  'phpbb-de-mail',
  'lemmy-mail',
  'postmark-mail',
  'aimeos-mail',
  'bookstack-mail',
  'devise-mail',
  'fider-mail',
  'firefly-mail',
  'friendica-mail',
  'hievents-mail',
  'kanboard-mail',
  'leantime-mail',
  'mastodon-mail',
  'openfoodnetwork-mail',
  'oscar-mail',
  'pkp-mail',
  'pretalx-mail',
  'snipeit-mail',
  'sympa-mail',
  'taiga-mail',
  'vikunja-mail',
]);

/** Mail-like ham: the product mails and the two newsletters; the figures name them apart. */
export const MAIL_LIKE_HAM = new Set([...PRODUCT_MAIL, 'bitcoinops-newsletter', 'dataisplural-newsletter']);

/** The phishing and scam sources (real e-mail spam) whose recall the card reports on its own line. */
export const SCAM_MAIL = new Set([
  'mailinglist-spam',
  'mailinglist-spam2',
  'phishingpot',
  'spamarchive',
  'blacklisted-emails',
]);

/** The short-message sources, reported one by one. */
export const SMS_SOURCES = new Set(['sms', 'supersms', 'smstrans-train']);

/** The made-up labelled set of this repository (model/handmade), its own source group. */
export const HANDMADE = 'handmade';

/**
 * The corpus a source belongs to: `spamassassin/easy-ham-1` → `spamassassin`; product mails → `templates`.
 * The product mails share pools of invented names, companies and amounts: as one group, a value of the pools
 * is one group's artefact and gets no weight (see RECIPE.vocabGroups).
 */
export const groupOf = (source: string): string =>
  PRODUCT_MAIL.has(source)
    ? 'templates'
    : source.startsWith(`${HANDMADE}/`)
      ? HANDMADE
      : (source.split('/')[0] ?? source);

/**
 * The genre of the corpus sources, as a site would name its form: what the model's genre tokens are learnt
 * from. Mail has no form (the API's checks without a context).
 */
const FORM_OF_SOURCE: Record<string, FormType> = {
  youtube: 'comment',
  'comment-templates': 'comment',
  germeval2017: 'comment',
  sb10k: 'comment',
  deft2017: 'comment',
  'stackexchange-spam': 'forum_post',
  cimt: 'forum_post',
  forumconstruire: 'forum_post',
  hotelreviews: 'review',
  'cls-books-fr': 'review',
  allocine: 'review',
  sms: 'message',
  supersms: 'message',
  'smstrans-train': 'message',
};

/** The form type a row is scored with: its own, or its source's. */
export function formTypeOf(row: Row): FormType | undefined {
  return row.form_type ?? FORM_OF_SOURCE[row.source.split('/')[0] ?? row.source];
}

/** The check context of a row, as a site would send it (scoring). */
export function contextOf(row: Row): FormContext | undefined {
  const formType = formTypeOf(row);
  if (formType === undefined && row.author_name === undefined && row.author_url === undefined)
    return undefined;
  return {
    ...(formType === undefined ? {} : { form_type: formType }),
    ...(row.author_name === undefined ? {} : { author_name: row.author_name }),
    ...(row.author_url === undefined ? {} : { author_url: row.author_url }),
  };
}

/**
 * The context a row is trained with: the made-up rows always carry theirs; corpus rows carry their source's
 * genre in a fixed half of them, so the model learns each genre and also judges a text sent without one.
 */
function trainingContext(row: Row): FormContext | undefined {
  if (row.source.startsWith(`${HANDMADE}/`)) return contextOf(row);
  return idHash(row.id) % 2 === 0 ? contextOf(row) : undefined;
}

function idHash(id: string): number {
  return Array.from(id).reduce((hash, c) => Math.imul(hash ^ c.charCodeAt(0), 16777619), 2166136261) >>> 0;
}

/**
 * How many rows of a large, uneven source are kept (by source, language and label; a fixed choice by id):
 * supersms is larger than every other short-message source together, and stackexchange-spam, all spam, would
 * otherwise outweigh every comment ham source.
 */
const KEEP: Record<string, number> = {
  'supersms:en:ham': 4000,
  'supersms:en:spam': 2500,
  'stackexchange-spam:en:spam': 2500,
};

/** The rows of the large sources cut to KEEP, the others as they are. */
export function sampleLarge(rows: Row[]): Row[] {
  const sizes = new Map<string, number>();
  for (const row of rows) sizes.set(keyOf(row), (sizes.get(keyOf(row)) ?? 0) + 1);
  return rows.filter((row) => {
    const keep = KEEP[keyOf(row)];
    const size = sizes.get(keyOf(row)) ?? 0;
    return keep === undefined || keep >= size || idHash(`keep:${row.id}`) % size < keep;
  });
}

const keyOf = (row: Row) => `${row.source}:${row.lang ?? 'en'}:${row.label}`;

/**
 * Stack Exchange spam is Markdown and HTML from one site; sites' comment forms get plain text. The Markdown
 * syntax is taken out (link text and URL kept, emphasis, headings and quotes dropped) and the post cut to a
 * comment's length, so that neither the syntax nor the length marks spam.
 */
const MARKDOWN_SOURCES = new Set(['stackexchange-spam']);
const MARKDOWN_LIMIT = 1500;

export function plainMarkdown(body: string): string {
  return body
    .replace(/!?\[([^\]\n]{0,300})\]\(([^)\s]{1,500})[^)\n]{0,200}\)/g, '$1 $2')
    .replace(/\[([^\]\n]{0,300})\]\[\d{1,3}\]/g, '$1')
    .replace(/^ {0,3}\[\d{1,3}\]: */gm, '')
    .replace(/\*\*|__|`/g, '')
    .replace(/^ {0,3}(?:#{1,6}|>) ?/gm, '')
    .slice(0, MARKDOWN_LIMIT);
}

/**
 * The tweet corpora's publishers replaced every link with a bare `http`. On Twitter every link is a t.co
 * link, and that is what the service sees in real posts, so such links are written back as a t.co link
 * (a made-up, deterministic path): otherwise the rules never see a link in German and French tweets and the
 * model learns that a shortener means spam.
 */
const LINKS_REPLACED_BY_HTTP = new Set(['sb10k', 'deft2017']);
const BARE_HTTP = /(^|\s)http(?=\s|$)/g;

function restoreLinks(row: Row): Row {
  if (MARKDOWN_SOURCES.has(row.source)) return { ...row, body: plainMarkdown(row.body) };
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
    const { vector } = extractor.extract(modelInput(normalised, findings, trainingContext(row)));
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
