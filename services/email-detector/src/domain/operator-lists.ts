import { matchDomainOrParent } from './domain-match';

/**
 * Operator allow and deny lists (EMAIL_ALLOW_LIST / EMAIL_DENY_LIST). An entry is either an address
 * (`someone@example.com`, compared case-insensitively, `+tag` ignored) or a domain, which also covers its
 * subdomains. Internationalised entries are compared in punycode. The allow list wins over the deny list.
 * They are applied right after the syntax check, before fixtures, disposable domains and DNS: an allow-listed
 * address with invalid syntax is still invalid (syntax first).
 */
export interface OperatorList {
  addresses: ReadonlySet<string>;
  domains: ReadonlySet<string>;
}

export type OperatorDecision = 'allow' | 'deny' | null;

export function createOperatorList(
  entries: readonly string[],
  toAscii: (domain: string) => string,
): OperatorList {
  const addresses = new Set<string>();
  const domains = new Set<string>();
  for (const raw of entries) {
    const entry = raw.trim().toLowerCase();
    const at = entry.lastIndexOf('@');
    if (at < 0) {
      const domain = toAscii(entry.replace(/^\*?\./, ''));
      if (domain) domains.add(domain);
      continue;
    }
    const local = entry.slice(0, at);
    const plus = local.indexOf('+');
    const domain = toAscii(entry.slice(at + 1));
    if (local && domain) addresses.add(`${plus > 0 ? local.slice(0, plus) : local}@${domain}`);
  }
  return { addresses, domains };
}

function listed(list: OperatorList, localBase: string, asciiDomain: string): boolean {
  return (
    list.addresses.has(`${localBase}@${asciiDomain}`) ||
    matchDomainOrParent(asciiDomain, list.domains) !== null
  );
}

export function operatorDecision(
  lists: { allow: OperatorList; deny: OperatorList },
  localBase: string,
  asciiDomain: string,
): OperatorDecision {
  if (listed(lists.allow, localBase, asciiDomain)) return 'allow';
  if (listed(lists.deny, localBase, asciiDomain)) return 'deny';
  return null;
}
