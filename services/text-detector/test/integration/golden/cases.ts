import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClientSettings, FormContext, TextResult } from '@spam-check/contracts';

/**
 * The golden-verdict cases: every text made up for this repository in the training format (the model's
 * handmade set and the training test's sample: de, fr and en; comments, contact-form messages, shop mails,
 * prizes, phishing, scams, forum posts), each checked by three clients in turn:
 * - `plain`: no settings, no reports;
 * - `configured`: its own thresholds, deny terms and site rules (a setting of each kind a check reads);
 * - `learner`: checks every text, reports a third of its checks with the text's label and a seventh with the
 *   other one, then checks every text again (`learnt`), so its reports, weights, near-duplicates and the
 *   campaigns it shares all take part.
 */

export interface GoldenText {
  id: string;
  lang: 'de' | 'fr' | 'en';
  label: 'spam' | 'ham';
  title: string;
  body: string;
  context?: FormContext;
}

interface Row {
  id: string;
  lang: GoldenText['lang'];
  label: GoldenText['label'];
  title: string;
  body: string;
  form_type?: FormContext['form_type'];
  author_name?: string;
  author_url?: string;
}

const root = join(__dirname, '..', '..', '..');
const FILES = [
  'model/handmade/comments.jsonl',
  'model/handmade/contact.jsonl',
  'model/handmade/commerce.jsonl',
  'test/integration/fixtures/training/sample.jsonl',
];

function textOf(row: Row): GoldenText {
  const context: FormContext = {};
  if (row.form_type) context.form_type = row.form_type;
  if (row.author_name) context.author_name = row.author_name;
  if (row.author_url) context.author_url = row.author_url;
  const text: GoldenText = { id: row.id, lang: row.lang, label: row.label, title: row.title, body: row.body };
  if (Object.keys(context).length > 0) text.context = context;
  return text;
}

/** The texts, in file order. */
export function goldenTexts(): GoldenText[] {
  return FILES.flatMap((file) =>
    readFileSync(join(root, file), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => textOf(JSON.parse(line) as Row)),
  );
}

/** The `configured` client's settings. */
export const CONFIGURED_SETTINGS: ClientSettings = {
  text: { spam_threshold: 0.7, suspicious_threshold: 0.4, deny_terms: ['casino', 'bitcoin'] },
  text_rules: { allowed_languages: ['de', 'fr'], max_links: 1 },
};

/** What the `learner` reports after its first pass: the text's label, the other one, or nothing. */
export function reportOf(index: number, text: GoldenText): 'spam' | 'ham' | undefined {
  if (index % 7 === 3) return text.label === 'spam' ? 'ham' : 'spam';
  if (index % 3 === 0) return text.label;
  return undefined;
}

/**
 * What the golden file keeps of a check: its verdict, score, engine and language, each reason's code and
 * weight (the message is the catalogue's text around the same figures), and the model's probability.
 */
export interface GoldenVerdict {
  verdict: TextResult['verdict'];
  score: number;
  engine: TextResult['engine'];
  language: string | null;
  reasons: [string, number][];
  model_probability: unknown;
}

export function goldenOf(result: TextResult): GoldenVerdict {
  return {
    verdict: result.verdict,
    score: result.score,
    engine: result.engine,
    language: result.language,
    reasons: result.reasons.map((reason) => [reason.code, reason.weight]),
    model_probability: result.signals.model_probability,
  };
}

/** One line per text, so a difference reads as the texts it concerns. */
export function goldenFileText(passes: GoldenPasses): string {
  const pass = (entries: Record<string, GoldenVerdict>) =>
    Object.entries(entries)
      .map(([id, verdict]) => `    ${JSON.stringify(id)}: ${JSON.stringify(verdict)}`)
      .join(',\n');
  const body = Object.entries(passes)
    .map(([name, entries]) => `  ${JSON.stringify(name)}: {\n${pass(entries)}\n  }`)
    .join(',\n');
  return `{\n${body}\n}\n`;
}

export const GOLDEN_FILE = join(__dirname, 'expected.json');

/** The passes in order, each a map of text id to verdict. */
export type GoldenPasses = Record<
  'plain' | 'configured' | 'learner' | 'learnt',
  Record<string, GoldenVerdict>
>;
