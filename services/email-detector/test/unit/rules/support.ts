/**
 * For the rule tests (one file per rule group, as in src/domain/): each rule at its boundary, just below (does
 * not fire), at (the first input that fires) and above its threshold. Rules without a number get their nearest
 * non-matching and matching inputs. The syntax rules' length limits (local part 64, label 63, address 254) are
 * at their boundaries in ../syntax.test.ts.
 */
import { disposableEmailBlocklist } from 'disposable-email-domains-js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { domainToASCII } from 'node:url';
import type { EmailCheckDeps } from '../../../src/domain/check-email';
import { createDisposableDomains } from '../../../src/domain/disposable';
import { createOperatorList } from '../../../src/domain/operator-lists';

export const readme = readFileSync(join(__dirname, '..', '..', '..', 'README.md'), 'utf8');

export const disposable = createDisposableDomains(disposableEmailBlocklist());

const noLists = createOperatorList([], domainToASCII);

export const deps: EmailCheckDeps = {
  disposableDomains: disposable,
  allowList: noLists,
  denyList: noLists,
  lookupMailServers: null,
};

/** Free providers in German- and French-speaking countries and the big international ones. */
export const FREE = [
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
  'yahoo.es',
  'hotmail.it',
  'hotmail.es',
  'outlook.es',
  'qq.com',
  '163.com',
  'naver.com',
  'gmx.li',
];

export const WIDELY_USED = [
  ...FREE,
  'mailbox.org',
  'posteo.de',
  'vodafone.de',
  'numericable.fr',
  'club-internet.fr',
  'hispeed.ch',
  'sunrise.ch',
  'comcast.net',
  'fastmail.com',
];
