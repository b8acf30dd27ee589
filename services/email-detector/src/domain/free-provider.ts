/**
 * Free mail providers: anyone can open a mailbox there in minutes. A weak signal that only counts together
 * with others; these widely used providers are never spam on their own. The list is the
 * big international providers plus the main German, French, Swiss and Belgian ones; it doubles as the set
 * of popular domains for did-you-mean suggestions (typo.ts).
 */
export const FREE_PROVIDERS: ReadonlySet<string> = new Set([
  // international
  'gmail.com',
  'googlemail.com',
  'yahoo.com',
  'yahoo.fr',
  'yahoo.de',
  'yahoo.co.uk',
  'ymail.com',
  'rocketmail.com',
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
  'live.com',
  'live.fr',
  'live.de',
  'live.be',
  'msn.com',
  'aol.com',
  'aol.de',
  'aol.fr',
  'icloud.com',
  'me.com',
  'mac.com',
  'mail.com',
  'email.com',
  'protonmail.com',
  'protonmail.ch',
  'proton.me',
  'pm.me',
  'tutanota.com',
  'tutanota.de',
  'tuta.io',
  'zoho.com',
  'yandex.com',
  'yandex.ru',
  'mail.ru',
  'gmx.com',
  // German-speaking
  'gmx.de',
  'gmx.net',
  'gmx.at',
  'gmx.ch',
  'web.de',
  't-online.de',
  'freenet.de',
  'online.de',
  'arcor.de',
  'email.de',
  'bluewin.ch',
  // French-speaking
  'gmx.fr',
  'orange.fr',
  'wanadoo.fr',
  'free.fr',
  'laposte.net',
  'sfr.fr',
  'neuf.fr',
  'bbox.fr',
  'skynet.be',
  'telenet.be',
]);

export function isFreeProvider(asciiDomain: string): boolean {
  return FREE_PROVIDERS.has(asciiDomain);
}
