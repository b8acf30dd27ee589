/**
 * What a client's reports do for it (DESIGN.md §6.1, issue #12 point 4): a held-out source is streamed in a
 * fixed order through the service's text check for one client; every wrong verdict is reported as a
 * moderator would (spam that was not `spam`, ham that was `spam`), at once, through the same store and
 * learning as `POST /v1/feedback`. MCC (`spam` verdict as the positive class) is measured on the last 70 % of
 * the stream, with the reports and without them (the same stream, nothing reported). LLM off.
 *
 * Sources: for each group in HELD_OUT, a model is trained without that group (scripts/train/model.ts `fit`,
 * the shipped recipe) and the group is streamed: sources the model never saw. Then, with the shipped model,
 * sources it trained on, to show that reporting does not make them worse.
 *
 * Usage: pnpm --filter @spam-check/text-detector simulate-feedback [--data <dir>] [--only youtube,...]
 */
import { resolve } from 'node:path';
import { loadServiceConfig } from '../src/config';
import { loadLanguageDetector } from '../src/data-access/language-detector';
import { readModelFile } from '../src/data-access/model-file';
import { createFeedbackStore } from '../src/compose';
import { localChecker } from './local-checker';
import type { DetectLanguage } from '../src/domain/language';
import type { TextModel } from '../src/domain/model/classifier';
import { buildDataset, groupOf, mulberry32, readRows, shuffle, type Dataset, type Row } from './train/data';
import { RECIPE, SPACE, fit } from './train/model';

const REPO_ROOT = resolve(__dirname, '../../..');
const SEED = 20261123;
/** Groups with both labels, each streamed through a model trained without it. */
const HELD_OUT = ['youtube', 'sms', 'smstrans-train'];
/** Groups streamed through the shipped model, which trained on them. */
const SEEN = ['sms', 'smstrans-train', 'youtube', 'spamassassin'];
/** At most this many texts per stream (a fixed, stratified-enough sample of larger sources). */
const STREAM_LIMIT = 3000;
const MEASURED_SHARE = 0.7;

const config = loadServiceConfig({ LOG_LEVEL: 'silent' });

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

function mcc(pairs: { spam: boolean; predicted: boolean }[]): number {
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

/** The stream's verdicts for one client, reporting wrong ones when `report` is set. */
async function stream(
  rows: Row[],
  model: TextModel,
  detectLanguage: DetectLanguage,
  report: boolean,
): Promise<{ measured: { spam: boolean; predicted: boolean }[]; reports: number }> {
  const feedback = createFeedbackStore(config, model, undefined);
  const checkText = localChecker(model, detectLanguage, feedback);
  const measuredFrom = Math.floor(rows.length * (1 - MEASURED_SHARE));
  const measured: { spam: boolean; predicted: boolean }[] = [];
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
    const predicted = result.verdict === 'spam';
    if (i >= measuredFrom) measured.push({ spam, predicted });
    if (report && spam !== predicted) {
      await feedback.reportCheck('simulated-client', result.id, row.label);
      reports++;
    }
  }
  return { measured, reports };
}

async function simulate(
  name: string,
  rows: Row[],
  model: TextModel,
  detectLanguage: DetectLanguage,
): Promise<void> {
  const ordered = shuffle([...rows], mulberry32(SEED)).slice(0, STREAM_LIMIT);
  const without = await stream(ordered, model, detectLanguage, false);
  const withFeedback = await stream(ordered, model, detectLanguage, true);
  const spam = ordered.filter((row) => row.label === 'spam').length;
  const before = mcc(without.measured);
  const after = mcc(withFeedback.measured);
  console.log(
    `| ${name} | ${ordered.length} (${spam} spam) | ${withFeedback.reports} | ${before.toFixed(4)} | ` +
      `${after.toFixed(4)} | ${(after - before >= 0 ? '+' : '') + (after - before).toFixed(4)} |`,
  );
}

async function main(): Promise<void> {
  const dir = resolve(REPO_ROOT, argument('--data') ?? '../shared/data/text');
  const only = argument('--only')?.split(',');
  const wanted = (name: string) => !only || only.some((part) => name.includes(part));
  const english = readRows(resolve(dir, 'train.jsonl.gz')).map((row) => ({ ...row, lang: 'en' }));
  const rows = [...english, ...readRows(resolve(dir, 'extra.jsonl.gz'))];
  const detectLanguage = await loadLanguageDetector();
  console.log(
    '| stream | texts | reports | MCC last 70 % without feedback | with feedback | change |\n|---|---|---|---|---|---|',
  );

  let data: Dataset | undefined;
  for (const group of HELD_OUT) {
    const name = `${group} (model trained without it)`;
    if (!wanted(name)) continue;
    data ??= buildDataset(rows, SPACE, detectLanguage);
    const ground = data.rows
      .map((_, doc) => doc)
      .filter((doc) => RECIPE.languages.includes(data!.languages[doc] as string));
    const train = ground.filter((doc) => groupOf(data!.rows[doc]!.source) !== group);
    const { model } = fit(data, train, SEED, config.TEXT_SPAM_THRESHOLD);
    await simulate(
      name,
      rows.filter((row) => groupOf(row.source) === group),
      model,
      detectLanguage,
    );
  }

  const shipped = readModelFile();
  for (const group of SEEN) {
    const name = `${group} (shipped model, trained on it)`;
    if (!wanted(name)) continue;
    await simulate(
      name,
      rows.filter((row) => groupOf(row.source) === group),
      shipped,
      detectLanguage,
    );
  }
}

void main();
