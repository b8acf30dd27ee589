import { disposableEmailBlocklistSet } from 'disposable-email-domains-js';
import commonProviders from 'email-providers/common.json';
import freeEmailDomains from 'free-email-domains';

/**
 * Free mail providers: anyone can open a mailbox there in minutes. A weak signal that only counts together
 * with others; these widely used providers are never spam on their own. The list is the npm package
 * `free-email-domains` (MIT; HubSpot's list of free providers merged with two lists of throw-away domains),
 * read from the file it ships: its install script, which would refresh that file from the network, is not
 * run (pnpm runs only the build scripts the workspace allows), so nothing is fetched at install or at run
 * time. Its throw-away and typo-squatting domains (`mailinator.com`, `gmial.com`) are taken out with the
 * disposable list this detector already uses: they are disposable (disposable.ts), not free. README
 * "Free providers and typos" has the comparison that chose it. It lacks some providers people in Germany and
 * France use (mailbox.org, hey.com): the npm package `email-providers` (ISC, released monthly), whose
 * `common.json` lists the common providers, is added to it.
 */

/** Our overlay: free providers both packages lack (ISP mailboxes of German and French customers, mostly). */
const OVERLAY = ['tutanota.com', 'email.de', 'bbox.fr', 'vodafone.de', '1und1.de'];

/** Names reserved for examples (RFC 2606) that `email-providers` lists: no one's mailbox. */
const NOT_PROVIDERS = new Set(['example.com', 'example.net', 'example.org']);

const disposable = disposableEmailBlocklistSet();

const FREE_PROVIDERS: ReadonlySet<string> = new Set([
  ...[...freeEmailDomains, ...commonProviders].filter(
    (domain) => !disposable.has(domain) && !NOT_PROVIDERS.has(domain),
  ),
  ...OVERLAY,
]);

export function isFreeProvider(asciiDomain: string): boolean {
  return FREE_PROVIDERS.has(asciiDomain);
}
