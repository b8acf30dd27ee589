import { disposableEmailBlocklistSet } from 'disposable-email-domains-js';
import freeEmailDomains from 'free-email-domains';

/**
 * Free mail providers: anyone can open a mailbox there in minutes. A weak signal that only counts together
 * with others; these widely used providers are never spam on their own. The list is the npm package
 * `free-email-domains` (MIT; HubSpot's list of free providers merged with two lists of throw-away domains),
 * read from the file it ships: its install script, which would refresh that file from the network, is not
 * run (pnpm runs only the build scripts the workspace allows), so nothing is fetched at install or at run
 * time. Its throw-away and typo-squatting domains (`mailinator.com`, `gmial.com`) are taken out with the
 * disposable list this detector already uses: they are disposable (disposable.ts), not free. README
 * "Free providers and typos" has the comparison that chose it.
 */

/** Our overlay: free providers the package lacks. */
const OVERLAY = ['tutanota.com', 'email.de', 'bbox.fr'];

const disposable = disposableEmailBlocklistSet();

const FREE_PROVIDERS: ReadonlySet<string> = new Set([
  ...freeEmailDomains.filter((domain) => !disposable.has(domain)),
  ...OVERLAY,
]);

export function isFreeProvider(asciiDomain: string): boolean {
  return FREE_PROVIDERS.has(asciiDomain);
}
