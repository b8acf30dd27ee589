/**
 * Trains the text model and measures it; its figures are the model card's (model/MODEL_CARD.md).
 *
 * Data: every *.jsonl(.gz) file of ../shared/data/text (train.jsonl.gz: English; extra.jsonl.gz: mostly German
 * and French; extra2.jsonl.gz: newsletters and transactional mail in all three; extra3.jsonl.gz: short
 * messages, comment and forum spam, 18 products' mails; its two large sources cut by `sampleLarge`), the
 * made-up set of model/handmade (unless `--no-handmade`), plus any `--extra <file>` in the same format
 * (e.g. what `feedback export` writes). Rows in German, French and English are the model's ground; rows in
 * other languages are never trained on and only scored.
 * Splits: a held-out 20 % (stratified by source, language and label), and for each of the 23 product-mail
 * sources a model trained without it (the lighter effort LIGHT) and scored on it. `--only` also reaches a
 * model trained without any other German or French source. Nothing is trained, calibrated or tuned on a test
 * part; every figure is the service's verdict (rules + model, LLM off) on texts it never saw.
 * Then trains on everything, scores the comment, forum, short-message, scam and made-up rows out of fold
 * (each with the fold model that did not see it) and writes model/text-model.bin. Deterministic (fixed
 * seed, single thread).
 *
 * Usage: pnpm --filter @spam-check/text-detector train [--data <dir>] [--extra <file>]... [--out <path>]
 *        [--no-write] [--no-handmade] [--only held,cimt,...] (evaluate only the splits whose name contains one of these)
 *        [--set name=value,...] (try another number of RECIPE; the shipped model uses the defaults)
 */
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadServiceConfig } from '../../src/config';
import { loadLanguageDetector } from '../../src/data-access/language-detector';
import { localChecker } from '../local-checker';
import {
  HANDMADE,
  MAIL_LIKE_HAM,
  PRODUCT_MAIL,
  SCAM_MAIL,
  SMS_SOURCES,
  buildDataset,
  formTypeOf,
  readRows,
  sampleLarge,
  stratifiedSplit,
  type Dataset,
  type Row,
} from './data';
import {
  FIGURES_HEADER,
  answer,
  figures,
  figuresRow,
  groupBy,
  precisionRecall,
  reliability,
  spamPrecision,
  type Answer,
} from './metrics';
import { LIGHT, RECIPE, SPACE, fit, overrideRecipe, type Fitted } from './model';

const REPO_ROOT = resolve(__dirname, '../../../..');
const SEED = 20261123;

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

function allArguments(name: string): string[] {
  return process.argv.flatMap((value, i) => (process.argv[i - 1] === name ? [value] : []));
}

/**
 * Every `*.jsonl` / `*.jsonl.gz` file of the data directory, in name order, then the `--extra` files. Rows
 * of the data directory without a `lang` are English (train.jsonl.gz has no `lang`); rows of `--extra` files
 * without one get the detected language.
 */
function loadRows(): Row[] {
  const dir = resolve(REPO_ROOT, argument('--data') ?? '../shared/data/text');
  const own = sampleLarge(
    jsonlFiles(dir).flatMap((path) => readRows(path).map((row) => ({ ...row, lang: row.lang ?? 'en' }))),
  );
  const handmade = !process.argv.includes('--no-handmade')
    ? jsonlFiles(HANDMADE_DIR).flatMap((path) =>
        readRows(path).map((row) => ({ ...row, source: `${HANDMADE}/${row.source}` })),
      )
    : [];
  const more = allArguments('--extra').flatMap((path) => readRows(resolve(process.cwd(), path)));
  return [...own, ...handmade, ...more];
}

const HANDMADE_DIR = resolve(__dirname, '../../model/handmade');

function jsonlFiles(dir: string): string[] {
  const files = readdirSync(dir)
    .filter((name) => /\.jsonl(\.gz)?$/.test(name))
    .sort();
  if (files.length === 0) throw new Error(`no *.jsonl or *.jsonl.gz files in ${dir}`);
  return files.map((name) => resolve(dir, name));
}

const config = loadServiceConfig({});

/** The kinds of source the card sums up per language: mail-like ham, and real phishing and scam mail. */
function kindOf(source: string): string | undefined {
  if (MAIL_LIKE_HAM.has(source)) return 'mail-like ham';
  if (SCAM_MAIL.has(source)) return 'phishing and scam mail';
  return undefined;
}

function printFigures(title: string, data: Dataset, answers: Answer[]): void {
  console.log(`\n### ${title}\n${FIGURES_HEADER}`);
  for (const [language, group] of groupBy(answers, (a) => data.languages[a.doc] as string))
    console.log(figuresRow(`**${language}**`, figures(data, group)));
  for (const [kind, group] of groupBy(
    answers.filter((a) => kindOf(data.rows[a.doc]?.source as string) !== undefined),
    (a) => `${data.languages[a.doc] as string} ${kindOf(data.rows[a.doc]?.source as string) as string}`,
  ))
    console.log(figuresRow(`*${kind}*`, figures(data, group)));
  for (const [source, group] of groupBy(
    answers,
    (a) => `${data.languages[a.doc] as string} ${data.rows[a.doc]?.source as string}`,
  ))
    console.log(figuresRow(source, figures(data, group)));
  const byRules = answers.filter((a) => a.engine === 'rules');
  const rulesOnHam = byRules.filter((a) => data.labels[a.doc] === 0).length;
  console.log(`\ndecided by rules alone: ${byRules.length - rulesOnHam} spam, ${rulesOnHam} ham`);
}

function printCalibration(data: Dataset, answers: Answer[]): Record<string, unknown> {
  const summary: Record<string, unknown> = {};
  for (const [language, group] of groupBy(answers, (a) => data.languages[a.doc] as string)) {
    const { n, precision } = spamPrecision(data, group);
    summary[language] = { flagged: n, precision: Number(precision.toFixed(4)) };
    console.log(
      `\n#### ${language}: ${n} texts at or above the spam threshold, ${(100 * precision).toFixed(2)} % spam`,
    );
    console.log(reliability(data, group).join('\n'));
    console.log(`\n${precisionRecall(data, group).join('\n')}`);
  }
  return summary;
}

/** Diagnostics (TRAIN_DEBUG=1): a sample of the ham that did not get `ham`, and of the missed spam. */
function printMistakes(data: Dataset, answers: Answer[]): void {
  const wrong = answers.filter((a) =>
    data.labels[a.doc] === 1 ? a.verdict !== 'spam' : a.verdict !== 'ham',
  );
  for (const [key, group] of groupBy(
    wrong,
    (a) => `${data.rows[a.doc]?.source as string} ${data.rows[a.doc]?.label as string}`,
  )) {
    console.log(`\n-- ${key}: ${group.length}`);
    for (const a of group.slice(0, 6)) {
      const row = data.rows[a.doc] as Row;
      const text = `${row.title} | ${row.body}`.replace(/\s+/g, ' ').slice(0, 160);
      console.log(`   ${a.verdict} ${a.score} ${a.reasons.join(' ')} :: ${text}`);
    }
  }
}

/** Detected language against the data's label, texts of 20+ characters. */
function printLanguageAccuracy(data: Dataset, docs: number[]): void {
  const lines: string[] = [];
  for (const language of RECIPE.languages) {
    const own = docs.filter((doc) => {
      const row = data.rows[doc] as Row;
      return data.languages[doc] === language && `${row.title} ${row.body}`.trim().length >= 20;
    });
    const right = own.filter((doc) => data.detected[doc] === language).length;
    lines.push(`${language} ${((100 * right) / own.length).toFixed(2)} % of ${own.length}`);
  }
  console.log(`\nlanguage detection on the held-out texts of 20+ characters: ${lines.join(', ')}`);
}

/** The rows the card reports out of fold: genres with a form, the short messages, the scams, the made-up set. */
function reportedOutOfFold(data: Dataset, doc: number): boolean {
  const row = data.rows[doc] as Row;
  return (
    formTypeOf(row) !== undefined ||
    SMS_SOURCES.has(row.source) ||
    SCAM_MAIL.has(row.source) ||
    data.groups[doc] === HANDMADE
  );
}

/**
 * The shipped model's cross-fitting scored: each reported row by the fold model that did not see it (with the
 * shipped calibration), as the service checks it, with the row's form context. Comment spam by form type,
 * each short-message source, German and French scam mail, and the made-up set (which the shipped model's other
 * folds trained on: a check of the set, not a held-out figure).
 */
async function printOutOfFold(
  data: Dataset,
  final: Fitted,
  detectLanguage: (text: string) => string | null,
): Promise<Record<string, unknown>> {
  const answers: Answer[] = [];
  for (const fold of final.foldModels) {
    const docs = fold.docs.filter((doc) => reportedOutOfFold(data, doc));
    answers.push(...(await answer(data, docs, localChecker(fold.model, detectLanguage))));
  }
  const row = (a: Answer) => data.rows[a.doc] as Row;
  const tables: [string, (a: Answer) => string | undefined][] = [
    [
      'by form type (corpus rows; the made-up set below)',
      (a) =>
        data.groups[a.doc] === HANDMADE
          ? undefined
          : `${formTypeOf(row(a)) ?? 'none'} ${data.languages[a.doc] as string}`,
    ],
    [
      'short-message sources',
      (a) =>
        SMS_SOURCES.has(row(a).source) ? `${data.languages[a.doc] as string} ${row(a).source}` : undefined,
    ],
    [
      'phishing and scam mail',
      (a) => (SCAM_MAIL.has(row(a).source) ? `${data.languages[a.doc] as string} scam mail` : undefined),
    ],
    [
      'the made-up set (model/handmade; trained on by the other folds, not held out)',
      (a) =>
        data.groups[a.doc] === HANDMADE
          ? `${data.languages[a.doc] as string} ${row(a).source} (${formTypeOf(row(a)) ?? 'none'})`
          : undefined,
    ],
  ];
  const summary: Record<string, unknown> = {};
  for (const [title, key] of tables) {
    console.log(`\n### out of fold: ${title}\n${FIGURES_HEADER}`);
    const keyed = answers.flatMap((a) => {
      const k = key(a);
      return k === undefined ? [] : [{ k, a }];
    });
    for (const [name, group] of groupBy(
      keyed.map(({ a }) => a),
      (a) => key(a) as string,
    )) {
      const f = figures(data, group);
      summary[`${title}: ${name}`] = f;
      console.log(figuresRow(name, f));
    }
  }
  return summary;
}

async function main(): Promise<void> {
  const started = Date.now();
  overrideRecipe(argument('--set'));
  const detectLanguage = await loadLanguageDetector();
  const data = buildDataset(loadRows(), SPACE, detectLanguage);
  const seconds = () => ((Date.now() - started) / 1000).toFixed(0);
  console.log(`loaded ${data.rows.length} texts in ${seconds()} s`);

  const all = data.rows.map((_, doc) => doc);
  const ground = all.filter((doc) => RECIPE.languages.includes(data.languages[doc] as string));
  const elsewhere = all.filter((doc) => !RECIPE.languages.includes(data.languages[doc] as string));
  // Left out one at a time: every product's mails (by default), and on demand (`--only`) any other source
  // with German or French texts or mail-like ham.
  const sources = [...new Set(ground.map((doc) => data.rows[doc]?.source as string))].sort();
  const products = sources.filter((source) => PRODUCT_MAIL.has(source));
  const others = sources.filter(
    (source) =>
      !PRODUCT_MAIL.has(source) &&
      !source.startsWith(`${HANDMADE}/`) &&
      (MAIL_LIKE_HAM.has(source) ||
        ground.some((doc) => data.rows[doc]?.source === source && data.languages[doc] !== 'en')),
  );
  const only = argument('--only')?.split(',');
  // The made-up set is training data only: never part of a held-out figure.
  const made = ground.filter((doc) => data.groups[doc] === HANDMADE);
  const split = stratifiedSplit(
    data,
    ground.filter((doc) => data.groups[doc] !== HANDMADE),
    0.2,
    SEED,
  );
  const held = { train: [...split.train, ...made].sort((a, b) => a - b), test: split.test };
  const without = (source: string, light: boolean) => ({
    name: `without ${source}`,
    light,
    train: ground.filter((doc) => data.rows[doc]?.source !== source),
    test: ground.filter((doc) => data.rows[doc]?.source === source),
  });
  const splits = [
    { name: 'held-out 20%', light: false, ...held },
    ...products.map((source) => without(source, true)),
    ...(only ? others.map((source) => without(source, false)) : []),
  ];
  const metrics: Record<string, unknown> = {};
  for (const split of splits) {
    if (only && !only.some((part) => split.name.includes(part))) continue;
    const { model } = fit(
      data,
      split.train,
      SEED,
      config.TEXT_SPAM_THRESHOLD,
      split.light ? LIGHT : undefined,
    );
    const checkText = localChecker(model, detectLanguage);
    const answers = await answer(data, split.test, checkText);
    printFigures(
      `${split.name} (trained on ${split.train.length}, scored on ${split.test.length}; ${seconds()} s)`,
      data,
      answers,
    );
    metrics[split.name] = Object.fromEntries(
      groupBy(answers, (a) => `${data.languages[a.doc] as string} ${data.rows[a.doc]?.source as string}`).map(
        ([key, group]) => [key, figures(data, group)],
      ),
    );
    if (process.env.TRAIN_DEBUG) printMistakes(data, answers);
    if (split.name !== 'held-out 20%') continue;
    printLanguageAccuracy(data, split.test);
    console.log('\n### calibration on the held-out 20 % (score band, texts, share spam)');
    metrics.calibration = printCalibration(data, answers);
    const foreign = await answer(data, elsewhere, checkText);
    printFigures('languages the model was never trained on (all rows)', data, foreign);
    if (process.env.TRAIN_DEBUG) printMistakes(data, foreign);
    const byEngine = groupBy(foreign, (a) => `${a.verdict} by ${a.engine}`);
    const detectedAs = groupBy(foreign, (a) => String(data.detected[a.doc]));
    console.log(`\nverdicts there: ${byEngine.map(([key, group]) => `${key} ${group.length}`).join(', ')}`);
    console.log(`detected as: ${detectedAs.map(([key, group]) => `${key} ${group.length}`).join(', ')}`);
  }

  if (process.argv.includes('--no-write')) {
    console.log(`\ndone in ${seconds()} s`);
    return;
  }
  const final = fit(data, ground, SEED, config.TEXT_SPAM_THRESHOLD);
  metrics['out of fold'] = await printOutOfFold(data, final, detectLanguage);
  const outPath = resolve(__dirname, '../..', argument('--out') ?? 'model/text-model.bin');
  writeFileSync(outPath, final.write(metrics));
  console.log(`\nwrote ${outPath} (${statSync(outPath).size} bytes) in ${seconds()} s`);
}

void main();
