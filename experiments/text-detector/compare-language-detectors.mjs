/**
 * The comparison behind the choice of eld as language detector (see the README, "Language"); not part of
 * the service or of its dependencies. Run it outside the workspace:
 *   mkdir /tmp/langcmp && cd /tmp/langcmp && npm init -y && npm i franc franc-min tinyld eld languagedetect
 *   node <repo>/experiments/text-detector/compare-language-detectors.mjs <repo>/../shared/data/text
 * (run from /tmp/langcmp so the packages resolve). Scores a deterministic quarter of the German, French and
 * English texts of 20+ characters against the data's `lang` (English for train.jsonl.gz).
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { franc } from 'franc';
import { franc as francMin } from 'franc-min';
import * as tinyld from 'tinyld';
import { eld as eldSmall } from 'eld/small';
import { eld as eldMedium } from 'eld/medium';
import LanguageDetect from 'languagedetect';
const DIR = process.argv[2] ?? '../shared/data/text';
const load = (p) =>
  gunzipSync(readFileSync(p))
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
const train = load(`${DIR}/train.jsonl.gz`).map((r) => ({ ...r, lang: 'en' }));
const extra = load(`${DIR}/extra.jsonl.gz`);
const rows = [...train, ...extra].filter((r) => ['de', 'fr', 'en'].includes(r.lang));
// sample deterministic
let seed = 7;
const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
const sample = rows
  .filter(() => rnd() < 0.25)
  .map((r) => ({ ...r, text: `${r.title} ${r.body}`.trim().slice(0, 2000) }))
  .filter((r) => r.text.length >= 20);
const iso3 = { deu: 'de', fra: 'fr', eng: 'en' };
const ld = new LanguageDetect();
ld.setLanguageType('iso2');
const detectors = {
  franc: (t) => iso3[franc(t)] ?? franc(t),
  francOnly3: (t) => iso3[franc(t, { only: ['deu', 'fra', 'eng'] })],
  francMin: (t) => iso3[francMin(t)] ?? 'x',
  tinyld: (t) => tinyld.detect(t),
  eldSmall: (t) => eldSmall.detect(t).language,
  eldMedium: (t) => eldMedium.detect(t).language,
  languagedetect: (t) => ld.detect(t, 1)[0]?.[0] ?? '',
};
for (const [name, fn] of Object.entries(detectors)) {
  const started = performance.now();
  const per = {};
  const bySrc = {};
  for (const r of sample) {
    const ok = fn(r.text) === r.lang;
    per[r.lang] ??= [0, 0];
    per[r.lang][0] += ok;
    per[r.lang][1]++;
    const s = r.source.split('/')[0] + ':' + r.lang;
    bySrc[s] ??= [0, 0];
    bySrc[s][0] += ok;
    bySrc[s][1]++;
  }
  const ms = performance.now() - started;
  const tot = Object.values(per).reduce((a, b) => [a[0] + b[0], a[1] + b[1]], [0, 0]);
  console.log(
    name.padEnd(15),
    (tot[0] / tot[1]).toFixed(4),
    Object.entries(per)
      .map(([l, [a, b]]) => `${l} ${(a / b).toFixed(4)} (${b})`)
      .join(' '),
    `${(ms / sample.length).toFixed(3)} ms/text`,
  );
  console.log(
    '   worst:',
    Object.entries(bySrc)
      .map(([s, [a, b]]) => [s, a / b, b])
      .sort((a, b) => a[1] - b[1])
      .slice(0, 5)
      .map(([s, r, b]) => `${s} ${r.toFixed(3)}/${b}`)
      .join(', '),
  );
}
