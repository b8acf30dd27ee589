import { isFreeProvider } from './free-provider';

/**
 * Campaigns shared between clients (docs/design.md, Campaigns), the e-mail detector's side. The rules:
 * - an address's signatures are the address as a report keys it (./reports.ts: `local@ascii-domain`) and its
 *   domain, unless the domain is a free mail provider's (many sites' users share those; one sender there is
 *   not a campaign of the domain), both as keyed hashes (docs/design.md, Privacy and erasure);
 * - a signature counts once spam reports for it came from at least `minClients` distinct sharing clients;
 *   the clients named are the most that reported one of the address's signatures.
 */
/** The domain of a report key when it can be a campaign's, or null for a free mail provider's. */
export function campaignDomain(reportKey: string): string | null {
  const domain = reportKey.slice(reportKey.lastIndexOf('@') + 1);
  return isFreeProvider(domain) ? null : domain;
}

/**
 * The signatures of an address, from the keyed hashes of its mailbox and of its `campaignDomain` (null: none),
 * so that the campaign memory never sees an address or a domain in clear.
 */
export function campaignSignatures(mailboxHash: string, domainHash: string | null): string[] {
  return domainHash === null
    ? [`email-address:${mailboxHash}`]
    : [`email-address:${mailboxHash}`, `email-domain:${domainHash}`];
}

/** How many clients reported the address or its domain (0 when below the minimum). */
export function campaignReporters(counts: readonly number[], minClients: number): number {
  return Math.max(0, ...counts.filter((count) => count >= minClients));
}
