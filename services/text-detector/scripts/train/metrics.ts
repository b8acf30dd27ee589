import type { CheckText } from '../../src/domain/check-text';
import { contextOf, type Dataset } from './data';

/** What the service answered for one test row (LLM off: the local stages only). */
export interface Answer {
  doc: number;
  verdict: 'ham' | 'suspicious' | 'spam';
  score: number;
  engine: string;
  unfamiliar: boolean;
  /** Reason codes, strongest first (for the TRAIN_DEBUG listing of mistakes). */
  reasons: string[];
}

export async function answer(data: Dataset, docs: number[], checkText: CheckText): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (const doc of docs) {
    const row = data.rows[doc];
    if (!row) continue;
    const context = contextOf(row);
    const result = await checkText({
      title: row.title,
      body: row.body,
      language: 'en',
      requestId: 'train',
      ...(context === undefined ? {} : { context }),
    });
    answers.push({
      doc,
      verdict: result.verdict,
      score: result.score,
      engine: result.engine,
      unfamiliar: result.signals.model_unfamiliar !== undefined,
      reasons: result.reasons.map((reason) => `${reason.code}:${reason.weight}`),
    });
  }
  return answers;
}

/**
 * The model card's figures for one group of answers. Recall and MCC are given twice: with the `spam`
 * verdict as the positive class, and with "flagged" (`suspicious` or `spam`, score ≥ the suspicious
 * threshold) as the positive class, which is the model's own decision point (score 0.5) of earlier cards.
 */
export interface Figures {
  ham: number;
  spam: number;
  hamAsSpam: number;
  hamAsSuspicious: number;
  recall: number;
  recallFlagged: number;
  mcc: number | null;
  mccFlagged: number | null;
}

function confusion(data: Dataset, answers: Answer[], positive: (answer: Answer) => boolean) {
  let tp = 0;
  let fp = 0;
  let tn = 0;
  let fn = 0;
  for (const answer of answers) {
    const actual = data.labels[answer.doc] === 1;
    const predicted = positive(answer);
    if (predicted && actual) tp++;
    else if (predicted) fp++;
    else if (actual) fn++;
    else tn++;
  }
  const denominator = Math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn));
  const ham = fp + tn;
  const spam = tp + fn;
  return {
    ham,
    spam,
    falsePositiveRate: ham ? fp / ham : 0,
    recall: spam ? tp / spam : 0,
    mcc: ham && spam ? (denominator ? (tp * tn - fp * fn) / denominator : 0) : null,
  };
}

export function figures(data: Dataset, answers: Answer[]): Figures {
  const spamVerdict = confusion(data, answers, (a) => a.verdict === 'spam');
  const flagged = confusion(data, answers, (a) => a.verdict !== 'ham');
  return {
    ham: spamVerdict.ham,
    spam: spamVerdict.spam,
    hamAsSpam: spamVerdict.falsePositiveRate,
    hamAsSuspicious: flagged.falsePositiveRate - spamVerdict.falsePositiveRate,
    recall: spamVerdict.recall,
    recallFlagged: flagged.recall,
    mcc: spamVerdict.mcc,
    mccFlagged: flagged.mcc,
  };
}

const percent = (x: number) => `${(100 * x).toFixed(2)} %`;

export function figuresRow(name: string, f: Figures): string {
  return [
    name,
    String(f.ham),
    f.ham ? percent(f.hamAsSpam) : '—',
    f.ham ? percent(f.hamAsSuspicious) : '—',
    String(f.spam),
    f.spam ? f.recall.toFixed(4) : '—',
    f.spam ? f.recallFlagged.toFixed(4) : '—',
    f.mcc === null ? '—' : f.mcc.toFixed(4),
    f.mccFlagged === null ? '—' : f.mccFlagged.toFixed(4),
  ].join(' | ');
}

export const FIGURES_HEADER = [
  'group | ham | ham → spam | ham → suspicious | spam | recall (spam) | recall (flagged) | MCC (spam) | MCC (flagged)',
  '---|---|---|---|---|---|---|---|---',
].join('\n');

/** Answers grouped by a key, in key order. */
export function groupBy(answers: Answer[], key: (answer: Answer) => string): [string, Answer[]][] {
  const groups = new Map<string, Answer[]>();
  for (const answer of answers) groups.set(key(answer), [...(groups.get(key(answer)) ?? []), answer]);
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
}

const BANDS = [0, 0.1, 0.3, 0.5, 0.8, 0.9, 0.95, 0.99, 1.0001];

/** Reliability table: per score band, how many texts and what share of them is spam. */
export function reliability(data: Dataset, answers: Answer[]): string[] {
  const lines = ['score band | texts | share spam', '---|---|---'];
  for (let b = 0; b + 1 < BANDS.length; b++) {
    const low = BANDS[b] as number;
    const high = BANDS[b + 1] as number;
    const inBand = answers.filter((a) => a.score >= low && a.score < high);
    const spam = inBand.filter((a) => data.labels[a.doc] === 1).length;
    const label = `[${low.toFixed(2)}, ${high > 1 ? '1.00]' : `${high.toFixed(2)})`}`;
    lines.push(`${label} | ${inBand.length} | ${inBand.length ? percent(spam / inBand.length) : '—'}`);
  }
  return lines;
}

/** Share of spam among the texts at or above the spam threshold (the `spam` verdicts). */
export function spamPrecision(data: Dataset, answers: Answer[]): { n: number; precision: number } {
  const flagged = answers.filter((a) => a.verdict === 'spam');
  const spam = flagged.filter((a) => data.labels[a.doc] === 1).length;
  return { n: flagged.length, precision: flagged.length ? spam / flagged.length : 1 };
}

const CUTS = [0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95];

/**
 * Precision, recall and MCC of "score ≥ cut means spam" for cuts around the spam threshold: what another
 * `TEXT_SPAM_THRESHOLD` would give (the LLM off).
 */
export function precisionRecall(data: Dataset, answers: Answer[]): string[] {
  const lines = ['cut | texts ≥ cut | precision | recall | MCC', '---|---|---|---|---'];
  for (const cut of CUTS) {
    const c = confusion(data, answers, (a) => a.score >= cut);
    const above = answers.filter((a) => a.score >= cut);
    const spam = above.filter((a) => data.labels[a.doc] === 1).length;
    const precision = above.length ? (spam / above.length).toFixed(4) : '—';
    const mcc = c.mcc === null ? '—' : c.mcc.toFixed(4);
    lines.push(`${cut.toFixed(2)} | ${above.length} | ${precision} | ${c.recall.toFixed(4)} | ${mcc}`);
  }
  return lines;
}
