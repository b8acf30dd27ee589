/**
 * The study behind the spam threshold of the text model (its calibration's spam cut, issue #11 point 2): trains the
 * held-out split's model as the training script does, then, for several rules that pick each language's
 * spam threshold on the out-of-fold margins, prints the `spam`-verdict recall of the phishing and scam
 * sources and the share of spam at or above the threshold per language on the held-out 20 %. The cut is the
 * exact out-of-fold margin (fitCalibration walks a grid of topScale instead), so a figure can differ from a
 * training run by a text or two. With `--out <file>` it also writes every margin as JSON lines.
 * Not part of the service or of the training command.
 *   node --conditions=source --import tsx experiments/text-detector/margins.ts [--set name=value,...] [--out f]
 *   SPACE='{"bits":21}' ... changes the feature space (`SPACE` of scripts/train/model.ts) the same way.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadServiceConfig } from '../../services/text-detector/src/config';
import { loadLanguageDetector } from '../../services/text-detector/src/data-access/language-detector';
import { localChecker } from '../../services/text-detector/scripts/local-checker';
import { buildDataset, readRows, stratifiedSplit } from '../../services/text-detector/scripts/train/data';
import { answer, figures } from '../../services/text-detector/scripts/train/metrics';
import { RECIPE, SPACE, fit, overrideRecipe } from '../../services/text-detector/scripts/train/model';
import { SPAM_SOURCES } from './sources';

const SEED = 20261123;

interface Scored {
  key: string;
  label: number;
  margin: number;
}

/** Rules for "enough spam at or above the cut", on the out-of-fold texts of one language. */
const RULES: Record<string, (spam: number, texts: number) => boolean> = {
  'share ≥ 99.5 %': (spam, texts) => spam >= 0.995 * texts,
  'share ≥ 99 %': (spam, texts) => spam >= 0.99 * texts,
  'share ≥ 99 % with one imaginary ham': (spam, texts) => spam >= 0.99 * (texts + 1),
};

/** The lowest out-of-fold margin of each language at which the rule holds (the cut fitCalibration seeks). */
function cuts(outOfFold: Scored[], holds: (spam: number, texts: number) => boolean): Map<string, number> {
  const byKey = new Map<string, Scored[]>();
  for (const row of outOfFold) byKey.set(row.key, [...(byKey.get(row.key) ?? []), row]);
  const result = new Map<string, number>();
  for (const [key, rows] of byKey) {
    rows.sort((a, b) => b.margin - a.margin);
    let cut = Infinity;
    let spam = 0;
    rows.forEach((row, i) => {
      spam += row.label;
      if (holds(spam, i + 1)) cut = row.margin;
    });
    result.set(key, cut);
  }
  return result;
}

const argument = (name: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};

async function main(): Promise<void> {
  overrideRecipe(argument('--set'));
  Object.assign(SPACE, JSON.parse(process.env.SPACE ?? '{}'));
  const dir = resolve(__dirname, '../../../shared/data/text');
  const rows = [
    ...readRows(resolve(dir, 'train.jsonl.gz')).map((row) => ({ ...row, lang: 'en' })),
    ...readRows(resolve(dir, 'extra.jsonl.gz')),
  ];
  const detect = await loadLanguageDetector();
  const data = buildDataset(rows, SPACE, detect);
  const ground = data.rows
    .map((_, doc) => doc)
    .filter((doc) => RECIPE.languages.includes(data.languages[doc] as string));
  const held = stratifiedSplit(data, ground, 0.2, SEED);
  const config = loadServiceConfig({});
  const fitted = fit(data, held.train, SEED, config.TEXT_SPAM_THRESHOLD);
  const keyOf = (doc: number) => {
    const detected = data.detected[doc] ?? null;
    return detected !== null && RECIPE.languages.includes(detected) ? detected : 'other';
  };
  const outOfFold: Scored[] = fitted.outOfFold.docs.map((doc, k) => ({
    key: keyOf(doc),
    label: data.labels[doc] as number,
    margin: fitted.outOfFold.margins[k] as number,
  }));
  const answers = await answer(data, held.test, localChecker(fitted.model, detect));
  const test = answers.map((a) => {
    const from = data.offsets[a.doc] as number;
    const to = data.offsets[a.doc + 1] as number;
    const margin = fitted.model.margin({
      indices: data.indices.subarray(from, to),
      values: data.values.subarray(from, to),
    });
    const row = data.rows[a.doc];
    return {
      doc: a.doc,
      key: keyOf(a.doc),
      label: data.labels[a.doc] as number,
      margin,
      unfamiliar: a.unfamiliar,
      group: `${data.languages[a.doc] as string} ${row?.source as string}`,
      language: data.languages[a.doc] as string,
    };
  });

  const english = answers.filter((a) => data.languages[a.doc] === 'en');
  console.log(`English MCC of the flagged decision: ${figures(data, english).mccFlagged?.toFixed(4)}`);
  for (const [name, holds] of Object.entries(RULES)) {
    const cut = cuts(outOfFold, holds);
    const spam = (t: (typeof test)[number]) => !t.unfamiliar && t.margin >= (cut.get(t.key) ?? Infinity);
    const recall = SPAM_SOURCES.map((source) => {
      const own = test.filter((t) => t.group === source && t.label === 1);
      return `${source} ${own.filter(spam).length}/${own.length}`;
    });
    const precision = RECIPE.languages.map((language) => {
      const flagged = test.filter((t) => t.language === language && spam(t));
      const right = flagged.filter((t) => t.label === 1).length;
      return `${language} ${right}/${flagged.length}`;
    });
    console.log(`\n${name}: cuts ${[...cut].map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')}`);
    console.log(`  spam verdicts: ${recall.join(', ')}`);
    console.log(`  spam at or above the cut: ${precision.join(', ')}`);
  }

  const out = argument('--out');
  if (out === undefined) return;
  const lines = [
    ...outOfFold.map((row, k) => JSON.stringify({ part: 'oof', doc: fitted.outOfFold.docs[k], ...row })),
    ...test.map((row) => JSON.stringify({ part: 'test', ...row })),
  ];
  writeFileSync(out, `${lines.join('\n')}\n`);
}

void main();
