/**
 * Role accounts: mailboxes of a function, not a person (RFC 2142 names and their usual German and French
 * equivalents). Compared on the lower-cased local part without `+tag`, ignoring `.`, `_` and `-`
 * (`no-reply`, `no.reply`, `noreply` are one name). A role account is a weak signal, never spam on its own.
 */
const ROLE_NAMES = new Set([
  // RFC 2142
  'abuse',
  'hostmaster',
  'info',
  'marketing',
  'noc',
  'postmaster',
  'sales',
  'security',
  'support',
  'usenet',
  'uucp',
  'webmaster',
  'www',
  // common English
  'admin',
  'administrator',
  'billing',
  'careers',
  'contact',
  'donotreply',
  'enquiries',
  'feedback',
  'hello',
  'help',
  'hr',
  'jobs',
  'mailerdaemon',
  'newsletter',
  'noreply',
  'office',
  'press',
  'privacy',
  'root',
  'service',
  'team',
  'test',
  // German
  'buchhaltung',
  'buero',
  'büro',
  'empfang',
  'kontakt',
  'kundenservice',
  'personal',
  'rechnung',
  'verwaltung',
  'vertrieb',
  // French
  'accueil',
  'comptabilite',
  'comptabilité',
  'direction',
  'facturation',
  'secretariat',
  'secrétariat',
  'serviceclient',
]);

export function isRoleAccount(localBase: string): boolean {
  return ROLE_NAMES.has(localBase.replace(/[._-]/g, ''));
}
