import { matchDomainOrParent } from './domain-match';

/**
 * Disposable (throw-away) mailbox domains: the maintained list of the `disposable-email-domains` project
 * (npm `disposable-email-domains-js`, loaded once at start by the caller), subdomains included. Operator
 * lists are applied before this rule (operator-lists.ts), so an allow-listed domain never gets here.
 */
/** Lower-cased, trimmed set of the list's entries. */
export function createDisposableDomains(domains: Iterable<string>): ReadonlySet<string> {
  const set = new Set<string>();
  for (const domain of domains) {
    const entry = domain.trim().toLowerCase();
    if (entry) set.add(entry);
  }
  return set;
}

/** The list entry the domain falls under (itself or a parent), or null. */
export function disposableDomainOf(asciiDomain: string, disposable: ReadonlySet<string>): string | null {
  return matchDomainOrParent(asciiDomain, disposable);
}
