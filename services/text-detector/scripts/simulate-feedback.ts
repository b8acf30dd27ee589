/**
 * What a client's reports do for it (docs/design.md, Learning from reports): each source is streamed in a
 * fixed order through the service's text check for one client, and every verdict that was not right is
 * reported at once, as a moderator would (spam judged `ham` or `suspicious`, ham judged `spam` or
 * `suspicious`), through the same store and learning as `POST /v1/feedback`. Measured on the last 70 % of the
 * stream, with the reports and without them (the same stream, nothing reported), LLM off:
 * - a source with both labels: MCC of the `spam` verdict (positive class);
 * - a source with one label: the share judged right (`spam` for spam, not `spam` for ham);
 * - in both: the share of ham judged `spam`.
 *
 * Sources: every German, French and English source (its rows in those languages) of every file of the data
 * directory, which the shipped model all trains on: each is streamed through a model trained on all rows but
 * that source's (scripts/train/model.ts `fit`, the shipped recipe: its leave-one-source-out run).
 *
 * Usage: pnpm --filter @spam-check/text-detector simulate-feedback [--data <dir>] [--only youtube,...]
 *        [--models <dir>]
 * With `--models`, each leave-one-source-out model is kept there as `<source>.<rows>.bin` (rows: how many the
 * data directory held) and read back by the next run on the same data (training one takes minutes; the
 * streams take seconds).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createFeedbackStore } from '../src/compose';
import { loadServiceConfig } from '../src/config';
import { loadLanguageDetector } from '../src/data-access/language-detector';
import type { DetectLanguage } from '../src/domain/language';
import { loadModel, type TextModel } from '../src/domain/model/classifier';
import { localChecker } from './local-checker';
import { buildDataset, groupOf, mulberry32, readRows, shuffle, type Dataset, type Row } from './train/data';
import { RECIPE, SPACE, fit } from './train/model';

const REPO_ROOT = resolve(__dirname, '../../..');
const SEED = 20261123;
const LANGUAGES = new Set(['de', 'fr', 'en']);
/** At most this many texts per stream (a fixed sample of larger sources). */
const STREAM_LIMIT = 3000;
const MEASURED_SHARE = 0.7;

const config = loadServiceConfig({ LOG_LEVEL: 'silent' });

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

interface Judged {
  spam: boolean;
  predicted: boolean;
}

function mcc(pairs: Judged[]): number {
  let tp = 0;
  let tn = 0;
  let fp = 0;
  let fn = 0;
  for (const { spam, predicted } of pairs) {
    if (spam && predicted) tp++;
    else if (spam) fn++;
    else if (predicted) fp++;
    else tn++;
  }
  const denominator = Math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn));
  return denominator === 0 ? 0 : (tp * tn - fp * fn) / denominator;
}

/** MCC with both labels, else the share judged right; and the share of ham judged `spam`. */
function measure(pairs: Judged[]): { value: number; hamAsSpam: number } {
  const hams = pairs.filter((pair) => !pair.spam);
  const twoLabels = hams.length > 0 && hams.length < pairs.length;
  const right = pairs.filter((pair) => pair.spam === pair.predicted).length;
  return {
    value: twoLabels ? mcc(pairs) : right / Math.max(1, pairs.length),
    hamAsSpam: hams.filter((pair) => pair.predicted).length / Math.max(1, hams.length),
  };
}

/** The stream's verdicts for one client, reporting the ones that were not right when `report` is set. */
async function stream(
  rows: Row[],
  model: TextModel,
  detectLanguage: DetectLanguage,
  report: boolean,
): Promise<{ measured: Judged[]; reports: number }> {
  const feedback = createFeedbackStore(config, model, undefined);
  const checkText = localChecker(model, detectLanguage, feedback);
  const measuredFrom = Math.floor(rows.length * (1 - MEASURED_SHARE));
  const measured: Judged[] = [];
  let reports = 0;
  for (const [i, row] of rows.entries()) {
    const result = await checkText({
      title: row.title,
      body: row.body,
      language: 'en',
      requestId: 'simulation',
      clientId: 'simulated-client',
    });
    const spam = row.label === 'spam';
    if (i >= measuredFrom) measured.push({ spam, predicted: result.verdict === 'spam' });
    if (report && result.verdict !== (spam ? 'spam' : 'ham')) {
      await feedback.reportCheck('simulated-client', result.id, row.label);
      reports++;
    }
  }
  return { measured, reports };
}

const signed = (value: number) => (value >= 0 ? '+' : '') + value.toFixed(4);
const percent = (value: number) => `${(100 * value).toFixed(1)} %`;

async function simulate(name: string, rows: Row[], model: TextModel, detectLanguage: DetectLanguage) {
  const ordered = shuffle([...rows], mulberry32(SEED)).slice(0, STREAM_LIMIT);
  const without = await stream(ordered, model, detectLanguage, false);
  const withFeedback = await stream(ordered, model, detectLanguage, true);
  const spam = ordered.filter((row) => row.label === 'spam').length;
  const before = measure(without.measured);
  const after = measure(withFeedback.measured);
  const kind = spam > 0 && spam < ordered.length ? 'MCC' : 'right';
  console.log(
    `| ${name} | ${ordered.length} (${spam} spam) | ${withFeedback.reports} | ${kind} | ` +
      `${before.value.toFixed(4)} | ${after.value.toFixed(4)} | ${signed(after.value - before.value)} | ` +
      `${percent(before.hamAsSpam)} → ${percent(after.hamAsSpam)} |`,
  );
}

/** The rows of every file of the data directory, as training reads them (English where a row names none). */
function allRows(dir: string): Row[] {
  return readdirSync(dir)
    .filter((name) => /\.jsonl(\.gz)?$/.test(name))
    .sort()
    .flatMap((name) => readRows(resolve(dir, name)).map((row) => ({ ...row, lang: row.lang ?? 'en' })));
}

async function main(): Promise<void> {
  const dir = resolve(REPO_ROOT, argument('--data') ?? '../shared/data/text');
  const only = argument('--only')?.split(',');
  const models = argument('--models');
  if (models) mkdirSync(models, { recursive: true });
  const rows = allRows(dir);
  const detectLanguage = await loadLanguageDetector();
  const inLanguage = rows.filter((row) => LANGUAGES.has(row.lang ?? detectLanguage(row.body) ?? ''));
  const groups = [...new Set(inLanguage.map((row) => groupOf(row.source)))].filter(
    (group) => !only || only.some((part) => group.includes(part)),
  );
  console.log(
    '| stream | texts | reports | measure | last 70 % without reports | with reports | change | ham judged spam |\n' +
      '|---|---|---|---|---|---|---|---|',
  );
  let data: Dataset | undefined;
  for (const group of groups) {
    const streamed = inLanguage.filter((row) => groupOf(row.source) === group);
    const cached = models && resolve(models, `${group}.${rows.length}.bin`);
    if (cached && existsSync(cached)) {
      const model = loadModel(readFileSync(cached));
      await simulate(`${group} (model trained without it)`, streamed, model, detectLanguage);
      continue;
    }
    data ??= buildDataset(rows, SPACE, detectLanguage);
    const ground = data.rows
      .map((_, doc) => doc)
      .filter((doc) => RECIPE.languages.includes(data!.languages[doc] as string));
    const train = ground.filter((doc) => groupOf(data!.rows[doc]!.source) !== group);
    const fitted = fit(data, train, SEED, config.TEXT_SPAM_THRESHOLD);
    if (cached) writeFileSync(cached, fitted.write());
    const { model } = fitted;
    await simulate(`${group} (model trained without it)`, streamed, model, detectLanguage);
  }
}

void main();
