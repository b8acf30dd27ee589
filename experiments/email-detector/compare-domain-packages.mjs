/**
 * The comparison behind the free-provider list and the typo suggester of the e-mail detector (README "Free
 * providers and typos"); not part of the service or of its dependencies. Run it outside the workspace:
 *   mkdir /tmp/mailcmp && cd /tmp/mailcmp && npm init -y && npm i --ignore-scripts free-email-domains \
 *     email-providers free-email-domains-list mailcheck @zootools/email-spell-checker email-misspelled
 *   cd <repo> && node --conditions=source --import tsx \
 *     experiments/email-detector/compare-domain-packages.mjs /tmp/mailcmp
 * (`--ignore-scripts`: free-email-domains' install script downloads a fresher list; the service uses the
 * published one.) The labelled set is built from the detector's tests. The former hand-written list and
 * matcher are in the history (commit a91cff0, src/domain/free-provider.ts and typo.ts).
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { FREE_PROVIDERS as KEPT_FREE } from '../../services/email-detector/src/domain/free-provider.ts';
import { suggestDomain as keptSuggest } from '../../services/email-detector/src/domain/typo.ts';
import {
  FREE,
  NO_SUGGESTION as TESTED_NO_SUGGESTION,
  TYPOS,
  WIDELY_USED,
} from '../../services/email-detector/test/unit/rules/labelled-domains.ts';

const DIR = process.argv[2] ?? '/tmp/mailcmp';
const require = createRequire(join(DIR, 'package.json'));
// The service's own dependency, resolved from the service (this file lives outside its tree).
const { disposableEmailBlocklistSet } = createRequire(
  new URL('../../services/email-detector/package.json', import.meta.url),
)('disposable-email-domains-js');
const disposable = disposableEmailBlocklistSet();

// Must get no suggestion: the tests' "gets no suggestion" list, the widely used providers of both tests, and
// the other domains the tests check (test domains, disposable ones).
export const NO_SUGGESTION = [
  ...TESTED_NO_SUGGESTION,
  'gmx.li',
  'hotmail.it',
  'outlook.es',
  'qq.com',
  '163.com',
  'naver.com',
  ...WIDELY_USED.filter((domain) => !FREE.includes(domain)),
  'gmx.net',
  'gmx.ch',
  't-online.de',
  'orange.fr',
  'wanadoo.fr',
  'laposte.net',
  'sfr.fr',
  'bluewin.ch',
  'protonmail.com',
  'aol.com',
  'with-mx.example',
  'only-a.example',
  'no-records.example',
  'xn--bcher-kva.de',
  'mailinator.com',
  'yopmail.com',
  'spam-check.test',
  'trusted.example',
  'blocked.example',
  'example.org',
  'does-not-exist.example',
];
// Free providers that must be flagged beyond the former list: the ones the tests' labelled set added since
// (its tail from yahoo.es on).
export const EXTRA_FREE = FREE.slice(FREE.indexOf('yahoo.es'));
// Must not be flagged free: disposable and typo domains of the tests, test and company domains.
export const NOT_FREE = [
  'mailinator.com',
  'yopmail.com',
  'example.com',
  'example.org',
  'with-mx.example',
  'spam-check.test',
  'trusted.example',
  'cloud.com',
  ...TYPOS.map(([typo]) => typo),
];

/** The former hand-written list (commit a91cff0): the tests' free providers without those added since. */
const FORMER_FREE = FREE.filter((domain) => !EXTRA_FREE.includes(domain));
/** The German- and French-speaking providers, the former list's tail from gmx.de on. */
const OVERLAY_FR_DE = FORMER_FREE.slice(FORMER_FREE.indexOf('gmx.de'));

const positives = FREE;
function freeRow(name, has, size) {
  const misses = positives.filter((d) => !has(d));
  const falses = NOT_FREE.filter(has);
  console.log(
    `| ${name} | ${size} | ${positives.length - misses.length}/${positives.length} | ${misses.length} | ${falses.length} (${falses.join(' ')}) |`,
  );
}
const freeEmailDomains = require('free-email-domains');
const withoutDisposable = new Set(freeEmailDomains.filter((d) => !disposable.has(d)));
const providersAll = new Set(require('email-providers/all.json'));
const providersCommon = new Set(require('email-providers/common.json'));
const freeEmailDomainsList = require('free-email-domains-list/build/src/constants').DOMAINS;
console.log('| free-provider list | domains | hits | misses | falsely listed |');
freeRow('kept', (d) => KEPT_FREE.has(d), KEPT_FREE.size);
freeRow('free-email-domains as published', (d) => freeEmailDomains.includes(d), freeEmailDomains.length);
freeRow('free-email-domains without disposable', (d) => withoutDisposable.has(d), withoutDisposable.size);
freeRow('email-providers all.json', (d) => providersAll.has(d), providersAll.size);
freeRow('email-providers common.json', (d) => providersCommon.has(d), providersCommon.size);
freeRow('free-email-domains-list', (d) => freeEmailDomainsList.has(d), freeEmailDomainsList.size);

function typoRow(name, suggest) {
  const misses = TYPOS.filter(([typo, want]) => suggest(typo) !== want).map(
    ([typo]) => `${typo}→${suggest(typo)}`,
  );
  const falses = NO_SUGGESTION.filter((d) => suggest(d) !== null).map((d) => `${d}→${suggest(d)}`);
  console.log(
    `| ${name} | ${TYPOS.length - misses.length}/${TYPOS.length} | ${misses.length} | ${falses.length} (${falses.join(' ')}) |`,
  );
}
const mailcheck = require('mailcheck');
const zoo = require('@zootools/email-spell-checker');
const byRun = (run, options) => (d) => run({ email: `a@${d}`, ...options })?.domain ?? null;
console.log('\n| typo suggester | hits | misses | false suggestions |');
typoRow('kept', keptSuggest);
typoRow('zootools defaults', byRun(zoo.run, {}));
typoRow(
  'zootools, its popular domains and ours',
  byRun(zoo.run, { domains: [...new Set([...zoo.POPULAR_DOMAINS, ...OVERLAY_FR_DE])] }),
);
typoRow(
  'mailcheck defaults',
  byRun((o) => mailcheck.run(o), {}),
);
typoRow(
  'mailcheck, our targets',
  byRun((o) => mailcheck.run(o), { domains: FORMER_FREE }),
);
const misspelled = await import(join(DIR, 'node_modules/email-misspelled/dist/esm/index.js'));
const checker = misspelled.default({ domains: [...new Set([...misspelled.all, ...OVERLAY_FR_DE])] });
typoRow('email-misspelled all + ours', (d) => checker(`a@${d}`)[0]?.suggest ?? null);
