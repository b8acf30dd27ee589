/**
 * Trains the text model and measures it; its figures are the model card's (model/MODEL_CARD.md).
 *
 * Data: every *.jsonl(.gz) file of ../shared/data/text (train.jsonl.gz: English; extra.jsonl.gz: mostly German
 * and French; extra2.jsonl.gz: newsletters and transactional mail in all three), plus any `--extra <file>` in
 * the same format (e.g. what `feedback export` writes). Rows in German, French and English are the model's
 * ground; rows in other languages are never trained on and only scored.
 * Splits: a held-out 20 % (stratified by source, language and label), and, for each source with German or
 * French texts and each mail-like ham source, a model trained without that source and scored on it. Nothing
 * is trained, calibrated or tuned on a
 * test part; every figure is the service's verdict (rules + model, LLM off) on texts it never saw.
 * Then trains on everything and writes model/text-model.bin. Deterministic (fixed seed, single thread).
 *
 * Usage: pnpm --filter @spam-check/text-detector train [--data <dir>] [--extra <file>]... [--out <path>]
 *        [--no-write] [--only held,cimt,...] (evaluate only the splits whose name contains one of these)
 *        [--set name=value,...] (try another number of RECIPE; the shipped model uses the defaults)
 */
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadServiceConfig } from '../../src/config';
import { loadLanguageDetector } from '../../src/data-access/language-detector';
import { localChecker } from '../local-checker';
import {
  MAIL_LIKE_HAM,
  SCAM_MAIL,
  buildDataset,
  readRows,
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
import { RECIPE, SPACE, fit, overrideRecipe } from './model';

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
  const files = readdirSync(dir)
    .filter((name) => /\.jsonl(\.gz)?$/.test(name))
    .sort();
  if (files.length === 0) throw new Error(`no *.jsonl or *.jsonl.gz files in ${dir}`);
  const own = files.flatMap((name) =>
    readRows(resolve(dir, name)).map((row) => ({ ...row, lang: row.lang ?? 'en' })),
  );
  const more = allArguments('--extra').flatMap((path) => readRows(resolve(process.cwd(), path)));
  return [...own, ...more];
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
  // Left out one at a time: every source with German or French texts, and the mail-like ham sources.
  const leftOut = [
    ...new Set(
      ground
        .map((doc) => data.rows[doc]?.source as string)
        .filter((source, k) => MAIL_LIKE_HAM.has(source) || data.languages[ground[k] as number] !== 'en'),
    ),
  ].sort();
  const held = stratifiedSplit(data, ground, 0.2, SEED);
  const splits = [
    { name: 'held-out 20%', ...held },
    ...leftOut.map((source) => ({
      name: `without ${source}`,
      train: ground.filter((doc) => data.rows[doc]?.source !== source),
      test: ground.filter((doc) => data.rows[doc]?.source === source),
    })),
  ];
  const only = argument('--only')?.split(',');
  const metrics: Record<string, unknown> = {};
  for (const split of splits) {
    if (only && !only.some((part) => split.name.includes(part))) continue;
    const { model } = fit(data, split.train, SEED, config.TEXT_SPAM_THRESHOLD);
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
  const outPath = resolve(__dirname, '../..', argument('--out') ?? 'model/text-model.bin');
  writeFileSync(outPath, final.write(metrics));
  console.log(`\nwrote ${outPath} (${statSync(outPath).size} bytes) in ${seconds()} s`);
}

void main();
