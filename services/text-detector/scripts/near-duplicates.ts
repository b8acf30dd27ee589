/**
 * How the near-duplicate measure (src/domain/near-duplicate.ts) splits the corpora: over all pairs that share
 * an LSH band, how many pairs at or above each similarity have the same label (campaign variants, repeated
 * ham) and how many do not (a report would then move a text of the other label), with a few examples.
 * Usage: pnpm --filter @spam-check/text-detector near-duplicates [files…] (default: ../shared/data/text/*).
 */
import { join } from 'node:path';
import { readRows } from './train/data';
import { bandKeys, fingerprintOf, nearDuplicates, similarity } from '../src/domain/near-duplicate';

const DATA = join(__dirname, '..', '..', '..', '..', 'shared', 'data', 'text');
const files = process.argv.slice(2);
const rows = (files.length ? files : [join(DATA, 'train.jsonl.gz'), join(DATA, 'extra.jsonl.gz')]).flatMap(
  (file) => readRows(file),
);
const fingerprints = rows.map((row) => fingerprintOf(row.title, row.body));
const index = new Map<string, number[]>();
fingerprints.forEach((fingerprint, i) => {
  for (const key of bandKeys(fingerprint.signature)) {
    const list = index.get(key) ?? [];
    list.push(i);
    index.set(key, list);
  }
});
const thresholds = [0.5, 0.6, 0.7, 0.8, 0.9];
const same = thresholds.map(() => 0);
const cross = thresholds.map(() => 0);
let matched = { same: 0, cross: 0 };
const examples: string[] = [];
const seen = new Set<string>();
const show = (i: number) =>
  `${rows[i]!.label} ${rows[i]!.source}: ${`${rows[i]!.title} | ${rows[i]!.body}`.slice(0, 140).replace(/\s+/g, ' ')}`;
for (const list of index.values()) {
  for (let a = 0; a < list.length; a++)
    for (let b = a + 1; b < list.length; b++) {
      const i = list[a]!;
      const j = list[b]!;
      const key = `${i},${j}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const fa = fingerprints[i]!;
      const fb = fingerprints[j]!;
      const value =
        fa.short || fb.short
          ? Math.floor(similarity(fa.signature, fb.signature))
          : similarity(fa.signature, fb.signature);
      const agree = rows[i]!.label === rows[j]!.label;
      thresholds.forEach((t, n) => {
        if (value >= t) (agree ? same : cross)[n]!++;
      });
      if (nearDuplicates(fa, fb)) {
        matched = agree ? { ...matched, same: matched.same + 1 } : { ...matched, cross: matched.cross + 1 };
        if (rows[i]!.label === 'spam' && agree && value < 0.8 && examples.length < 5 && seen.size % 7 === 0)
          examples.push(`${value.toFixed(2)}\n  ${show(i)}\n  ${show(j)}`);
      }
    }
}
console.log(`${rows.length} texts, ${seen.size} candidate pairs (sharing a band)`);
thresholds.forEach((t, n) =>
  console.log(`similarity >= ${t}: ${same[n]} pairs with the same label, ${cross[n]} with different labels`),
);
console.log(`near-duplicates as the service decides: ${matched.same} same label, ${matched.cross} different`);
console.log('examples of spam campaign variants below 0.8:');
for (const example of examples) console.log(example);
