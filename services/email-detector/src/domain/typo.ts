import { POPULAR_DOMAINS, run } from '@zootools/email-spell-checker';
import { isFreeProvider } from './free-provider';

/**
 * Did-you-mean for mistyped popular domains (`gmial.com` → `gmail.com`, `hotmial.fr` → `hotmail.fr`,
 * `gmail.con` → `gmail.com`), by `@zootools/email-spell-checker` (MIT, the maintained TypeScript fork of
 * mailcheck): the popular domain closest to the entered one by its sift3 distance, at most 2. README "Free
 * providers and typos" has the comparison that chose it. A suggestion skips the disposable check and weighs
 * against the address, so our overlay keeps real domains from being "corrected":
 * - targets: the package's popular domains plus the German, French, Swiss and Belgian providers and the
 *   national domains of the big ones, only those whose name (all but the top-level label) has 5+ characters
 *   (`gmx`, `web`, `aol`, `free` have too many real neighbours: `wem.de`, `gmx.li`);
 * - the package's guesses of a second-level or top-level label alone are off (`gmail.fr` → `mail.fr`,
 *   `spam-check.test` → `spam-check.de`);
 * - a free provider (free-provider.ts) or a known real neighbour (`cloud.com`, `yopmail.com`) is never
 *   corrected;
 * - the top-level label changes only from an implausible one (not 2 letters, not a common gTLD: `.frr`,
 *   `.con`) or a well-known slip (`.cm`, `.co` for `.com`), never between two real ones (`hotmail.es`,
 *   `orange.be` stay): the package is only offered the targets a domain's top-level label allows.
 */

/** The package's default threshold, stated because the length filter below depends on it. */
const MAX_DISTANCE = 2;

const OVERLAY_TARGETS = [
  // German-speaking
  't-online.de',
  'freenet.de',
  'online.de',
  'arcor.de',
  'email.de',
  'bluewin.ch',
  // French-speaking
  'orange.fr',
  'wanadoo.fr',
  'laposte.net',
  'skynet.be',
  'telenet.be',
  // national domains of the big providers
  'yahoo.com',
  'yahoo.fr',
  'yahoo.de',
  'yahoo.co.uk',
  'outlook.com',
  'outlook.fr',
  'outlook.de',
  'outlook.at',
  'hotmail.com',
  'hotmail.fr',
  'hotmail.de',
  'hotmail.co.uk',
  'hotmail.ch',
  'hotmail.be',
  'email.com',
  'protonmail.ch',
  'tutanota.com',
  'tutanota.de',
  'yandex.ru',
];

const nameOf = (domain: string) => domain.slice(0, domain.lastIndexOf('.'));
const tldOf = (domain: string) => domain.slice(domain.lastIndexOf('.') + 1);

/** Real domains close to a popular one. */
const NOT_TYPOS = new Set(['cloud.com', 'yopmail.com']);

const COMMON_GTLDS = new Set(['com', 'net', 'org', 'info', 'biz', 'edu', 'gov', 'int', 'mil', 'eu', 'me']);
const TLD_SLIPS: Record<string, readonly string[]> = {
  com: ['cm', 'co', 'om', 'cpm', 'vom', 'xom', 'ocm'],
  net: ['ne', 'nt', 'et'],
};

const TARGETS = [...new Set([...POPULAR_DOMAINS, ...OVERLAY_TARGETS])].filter(
  (domain) => nameOf(domain).length >= 5,
);

/** For each top-level label that is real or a known slip: the targets a domain under it may be corrected to. */
const TARGETS_BY_TLD = new Map<string, string[]>();
for (const target of TARGETS) {
  for (const tld of [tldOf(target), ...(TLD_SLIPS[tldOf(target)] ?? [])]) {
    const targets = TARGETS_BY_TLD.get(tld) ?? [];
    TARGETS_BY_TLD.set(tld, [...targets, target]);
  }
}

function targetsFor(tld: string): readonly string[] {
  const plausible = tld.length === 2 || COMMON_GTLDS.has(tld) || tld.startsWith('xn--');
  return plausible ? (TARGETS_BY_TLD.get(tld) ?? []) : TARGETS;
}

/** The popular domain the entered one is probably a typo of, or null. */
export function suggestDomain(asciiDomain: string): string | null {
  if (isFreeProvider(asciiDomain) || NOT_TYPOS.has(asciiDomain)) return null;
  // A sift3 distance is at least half the difference of the lengths: farther targets cannot be within 2.
  const domains = targetsFor(tldOf(asciiDomain)).filter(
    (target) => Math.abs(target.length - asciiDomain.length) <= 2 * MAX_DISTANCE,
  );
  if (domains.length === 0) return null;
  const suggestion = run({
    email: `x@${asciiDomain}`,
    domains,
    domainThreshold: MAX_DISTANCE,
    secondLevelDomains: [],
    topLevelDomains: [],
  });
  return suggestion ? suggestion.domain : null;
}
