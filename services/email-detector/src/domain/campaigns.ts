import { isFreeProvider } from './free-provider';

/**
 * Campaigns shared between clients (DESIGN.md §7.1), the e-mail detector's side. The rules:
 * - an address's signatures are the address as a report keys it (./reports.ts: `local@ascii-domain`) and its
 *   domain, unless the domain is a free mail provider's (many sites' users share those; one sender there is
 *   not a campaign of the domain);
 * - a signature counts once spam reports for it came from at least `minClients` distinct sharing clients;
 *   the clients named are the most that reported one of the address's signatures.
 */
export function campaignSignatures(reportKey: string): string[] {
  const domain = reportKey.slice(reportKey.lastIndexOf('@') + 1);
  return isFreeProvider(domain)
    ? [`email-address:${reportKey}`]
    : [`email-address:${reportKey}`, `email-domain:${domain}`];
}

/** How many clients reported the address or its domain (0 when below the minimum). */
export function campaignReporters(counts: readonly number[], minClients: number): number {
  return Math.max(0, ...counts.filter((count) => count >= minClients));
}
