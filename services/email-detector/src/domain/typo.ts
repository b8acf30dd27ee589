import { FREE_PROVIDERS } from './free-provider';

/**
 * Did-you-mean for mistyped popular domains (`gmial.com` → `gmail.com`, `hotmial.fr` → `hotmail.fr`,
 * `gmail.con` → `gmail.com`). Rules, chosen to avoid suggesting a different real domain:
 * - only popular domains whose name (all but the top-level label) has at least 5 characters are targets
 *   (`gmx`, `web`, `aol`, `free`, `sfr` have too many real neighbours);
 * - the name may differ by one edit (two for names of 8+ characters), counting a swap of neighbours as one;
 * - the top-level label must be the same, or an implausible one (not 2 letters, not a common gTLD) one edit
 *   away, or a well-known slip (`.cm`, `.co`, `.om` for `.com`);
 * - a domain that is itself popular, or a known real neighbour (`cloud.com`), is never corrected; the
 *   closest target wins, ties by list order.
 */
const TARGETS = [...FREE_PROVIDERS]
  .map((domain) => {
    const dot = domain.lastIndexOf('.');
    return { domain, name: domain.slice(0, dot), tld: domain.slice(dot + 1) };
  })
  .filter((target) => target.name.length >= 5);

/** Real domains one edit away from a popular one. */
const NOT_TYPOS = new Set(['cloud.com']);

const COMMON_GTLDS = new Set(['com', 'net', 'org', 'info', 'biz', 'edu', 'gov', 'int', 'mil', 'eu', 'me']);
const TLD_SLIPS: Record<string, readonly string[]> = {
  com: ['cm', 'co', 'om', 'cpm', 'vom', 'xom', 'ocm'],
  net: ['ne', 'nt', 'et'],
};

/** Optimal string alignment distance, stopping early once it exceeds `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, beforePrevious[j - 2]! + 1);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > max) return max + 1;
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length]!;
}

function tldCost(entered: string, target: string): number | null {
  if (entered === target) return 0;
  if (TLD_SLIPS[target]?.includes(entered)) return 1;
  const plausible = entered.length === 2 || COMMON_GTLDS.has(entered) || entered.startsWith('xn--');
  return !plausible && editDistance(entered, target, 1) <= 1 ? 1 : null;
}

/** The popular domain the entered one is probably a typo of, or null. */
export function suggestDomain(asciiDomain: string): string | null {
  if (FREE_PROVIDERS.has(asciiDomain) || NOT_TYPOS.has(asciiDomain)) return null;
  const dot = asciiDomain.lastIndexOf('.');
  const name = asciiDomain.slice(0, dot);
  const tld = asciiDomain.slice(dot + 1);
  let best: { domain: string; cost: number } | null = null;
  for (const target of TARGETS) {
    const tldPenalty = tldCost(tld, target.tld);
    if (tldPenalty === null) continue;
    const maxNameEdits = target.name.length >= 8 ? 2 : 1;
    const nameEdits = editDistance(name, target.name, maxNameEdits);
    if (nameEdits > maxNameEdits) continue;
    const cost = nameEdits + tldPenalty;
    if (cost > 0 && (best === null || cost < best.cost)) best = { domain: target.domain, cost };
  }
  return best?.domain ?? null;
}
