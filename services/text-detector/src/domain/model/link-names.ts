/**
 * Whether the sites a text links to are named in its words: a newsletter of a shop or a magazine links to
 * the shop's or the magazine's own site (`harpercollins.com` in a mail that says HarperCollins), a phishing
 * mail that says Costco, UPS or Microsoft links to some other site, and a shortener hides the site. The
 * canonical text turns links into `urltok`, so without this the model cannot see the difference.
 * A site is named when the label before its public suffix (`harpercollins` in `www.harpercollins.co.uk`)
 * is one of the text's words.
 */
export type LinkNaming = 'all' | 'some' | 'none';

/** Second-level labels under which sites are registered (`co.uk`, `com.au`). */
const SECOND_LEVEL = new Set(['co', 'com', 'org', 'net', 'gov', 'ac', 'edu', 'gouv']);
const MAX_HOSTS = 16;
const DIGIT = /\p{Nd}/gu;

function siteName(host: string): string | undefined {
  const labels = host.split('.').filter((label) => label !== '' && label !== 'www');
  if (labels.length < 2) return undefined;
  labels.pop();
  if (labels.length >= 2 && SECOND_LEVEL.has(labels[labels.length - 1] as string)) labels.pop();
  return (labels[labels.length - 1] as string).replace(DIGIT, '0');
}

/** Undefined when the text has no link with a site name (none at all, or only bare `http`). */
export function linkNaming(hosts: readonly string[], tokens: readonly string[]): LinkNaming | undefined {
  let sites = 0;
  let named = 0;
  for (const host of hosts.slice(0, MAX_HOSTS)) {
    const name = siteName(host);
    if (name === undefined) continue;
    sites++;
    if (name.length >= 3 && tokens.includes(name)) named++;
  }
  if (sites === 0) return undefined;
  return named === sites ? 'all' : named === 0 ? 'none' : 'some';
}
