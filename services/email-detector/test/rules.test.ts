import { EMAIL_REASONS, SUPPORTED_LANGUAGES, type EmailReasonCode } from '@spam-check/contracts';
import { disposableEmailBlocklist } from 'disposable-email-domains-js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { domainToASCII } from 'node:url';
import { checkEmail, type EmailCheckDeps } from '../src/domain/check-email';
import { createDisposableDomains, disposableDomainOf } from '../src/domain/disposable';
import { FIXTURE_DOMAIN } from '../src/domain/fixtures';
import { isFreeProvider } from '../src/domain/free-provider';
import { createOperatorList } from '../src/domain/operator-lists';
import { looksRandom } from '../src/domain/random-local-part';
import { isRoleAccount } from '../src/domain/role-account';
import { FIXTURE_WEIGHTS, REASON_WEIGHTS, scoreOf, VERDICT_THRESHOLDS } from '../src/domain/scoring';
import { suggestDomain } from '../src/domain/typo';

const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
const disposable = createDisposableDomains(disposableEmailBlocklist());
const noLists = createOperatorList([], domainToASCII);
const deps: EmailCheckDeps = {
  disposableDomains: disposable,
  allowList: noLists,
  denyList: noLists,
  lookupMailServers: null,
};

/** Free providers in German- and French-speaking countries and the big international ones. */
const FREE = [
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

const WIDELY_USED = [
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

describe('disposable domains (disposable-email-domains-js)', () => {
  it('loads the maintained list', () => {
    expect(disposable.size).toBeGreaterThan(3000);
  });

  it.each(WIDELY_USED)('the widely used provider %s is not on the list', (domain) => {
    expect(disposableDomainOf(domain, disposable)).toBeNull();
  });

  it('matches listed domains and their subdomains, never a parent or a bare top-level label', () => {
    expect(disposableDomainOf('mailinator.com', disposable)).toBe('mailinator.com');
    expect(disposableDomainOf('a.b.mailinator.com', disposable)).toBe('mailinator.com');
    expect(disposableDomainOf('mailinator.com.example', disposable)).toBeNull();
    expect(disposableDomainOf('com', disposable)).toBeNull();
  });
});

describe('free providers (free-email-domains, without its throw-away domains, and our overlay)', () => {
  it.each(FREE)('%s is a free provider', (domain) => {
    expect(isFreeProvider(domain)).toBe(true);
  });

  it.each(['mailinator.com', 'yopmail.com', 'gmial.com', 'gmai.com', 'example.com', 'spam-check.test'])(
    '%s is not (throw-away, typo or no provider)',
    (domain) => {
      expect(isFreeProvider(domain)).toBe(false);
    },
  );
});

describe('did-you-mean suggestions', () => {
  it.each([
    ['gmial.com', 'gmail.com'],
    ['gmai.com', 'gmail.com'],
    ['gmaill.com', 'gmail.com'],
    ['gmail.con', 'gmail.com'],
    ['gmail.cm', 'gmail.com'],
    ['gmail.co', 'gmail.com'],
    ['hotmial.fr', 'hotmail.fr'],
    ['hotmal.com', 'hotmail.com'],
    ['hotmail.frr', 'hotmail.fr'],
    ['yaho.fr', 'yahoo.fr'],
    ['outlok.de', 'outlook.de'],
    ['tonline.de', 't-online.de'],
    ['orage.fr', 'orange.fr'],
    ['wandoo.fr', 'wanadoo.fr'],
    ['lapsote.net', 'laposte.net'],
    ['googlemial.com', 'googlemail.com'],
    ['icoud.com', 'icloud.com'],
  ])('%s → %s', (typo, domain) => {
    expect(suggestDomain(typo)).toBe(domain);
  });

  it.each([
    'gmail.com',
    'gmx.at',
    'gmx.de',
    'web.de',
    'gmail.fr',
    'hotmail.es',
    'yahoo.es',
    'laposte.fr',
    'cloud.com',
    'mail.com',
    'email.de',
    'example.com',
    'orange.be',
    'freenet.de',
    'free.fr',
    'wem.de',
  ])('%s gets no suggestion', (domain) => {
    expect(suggestDomain(domain)).toBeNull();
  });
});

describe('random-looking local parts', () => {
  it.each(['x7k2m9p4q1', 'a3f9c2e81b7d4e60', 'qxzvbnmtrk', 'asdfghjklz', 'ab3cd5ef7g9', 'zx81kq0wm2p'])(
    '%s looks random',
    (local) => expect(looksRandom(local)).toBe(true),
  );

  it.each([
    'jane.doe',
    'mrschmidt',
    'jschmidt',
    'anna.schmidt1987',
    'angstschweiss',
    'krzysztof',
    'przybylski',
    'brzeczyszczykiewicz',
    'jeanpierre',
    'francoisxavier',
    'j.dupont',
    'max_mustermann',
    'info2024',
    '4915112345678',
    'christoph',
    'schwarzschild',
    'mueller.thomas',
    'dr.knecht',
  ])('%s does not', (local) => expect(looksRandom(local)).toBe(false));
});

describe('role accounts', () => {
  it.each(['admin', 'postmaster', 'no-reply', 'no.reply', 'noreply', 'kontakt', 'accueil', 'webmaster'])(
    '%s is a role account',
    (local) => expect(isRoleAccount(local)).toBe(true),
  );
  it.each(['jane', 'adminton', 'marie.contact'])('%s is not', (local) =>
    expect(isRoleAccount(local)).toBe(false),
  );
});

describe('scoring', () => {
  it.each([
    [[], 0, 'ham'],
    [[REASON_WEIGHTS.EMAIL_FREE_PROVIDER], 0.1, 'ham'],
    [[REASON_WEIGHTS.EMAIL_ROLE_ACCOUNT], 0.3, 'ham'],
    [[REASON_WEIGHTS.EMAIL_DOMAIN_TYPO], 0.4, 'ham'],
    [[REASON_WEIGHTS.EMAIL_RANDOM_LOCAL_PART], 0.45, 'ham'],
    [[REASON_WEIGHTS.EMAIL_RANDOM_LOCAL_PART, REASON_WEIGHTS.EMAIL_FREE_PROVIDER], 0.505, 'suspicious'],
    [[REASON_WEIGHTS.EMAIL_RANDOM_LOCAL_PART, REASON_WEIGHTS.EMAIL_ROLE_ACCOUNT], 0.615, 'suspicious'],
    [[REASON_WEIGHTS.EMAIL_NO_MAIL_SERVER], 0.7, 'suspicious'],
    [[REASON_WEIGHTS.EMAIL_NO_MAIL_SERVER, REASON_WEIGHTS.EMAIL_DOMAIN_TYPO], 0.82, 'spam'],
    [[REASON_WEIGHTS.EMAIL_DISPOSABLE_DOMAIN], 0.9, 'spam'],
    [[REASON_WEIGHTS.EMAIL_DOMAIN_NOT_FOUND], 0.9, 'spam'],
    [[REASON_WEIGHTS.EMAIL_INVALID_SYNTAX], 1, 'spam'],
    [[REASON_WEIGHTS.EMAIL_DISPOSABLE_DOMAIN, REASON_WEIGHTS.EMAIL_ALLOW_LISTED], 0, 'ham'],
    [[REASON_WEIGHTS.EMAIL_DNS_UNKNOWN], 0, 'ham'],
  ])('weights %j give score %d (%s)', (weights, score, verdict) => {
    expect(scoreOf(weights)).toEqual({ score, verdict });
  });

  it('documents its thresholds and every weight in the README', () => {
    expect(readme).toContain(`${VERDICT_THRESHOLDS.spam}`);
    expect(readme).toContain(`${VERDICT_THRESHOLDS.suspicious}`);
    for (const [code, weight] of Object.entries(REASON_WEIGHTS))
      expect(readme).toMatch(new RegExp(`\`${code}\`[^\\n]*\\| ${weight} `));
  });
});

describe('the reason catalogue', () => {
  it.each(Object.keys(EMAIL_REASONS) as EmailReasonCode[])(
    '%s has a weight and a message in every language',
    (code) => {
      expect(typeof REASON_WEIGHTS[code]).toBe('number');
      for (const language of SUPPORTED_LANGUAGES)
        expect(EMAIL_REASONS[code][language].length).toBeGreaterThan(10);
    },
  );
});

describe('fixtures', () => {
  it.each(Object.entries(FIXTURE_WEIGHTS))('%s@spam-check.test is documented in the README', (local) => {
    expect(readme).toContain(`${local}@${FIXTURE_DOMAIN}`);
  });

  it.each([
    ['spam@spam-check.test', 'spam'],
    ['suspicious@spam-check.test', 'suspicious'],
    ['ham@spam-check.test', 'ham'],
  ])('%s gives %s in every language', async (email, verdict) => {
    for (const language of SUPPORTED_LANGUAGES) {
      const result = await checkEmail({ email, language, requestId: 'fixture' }, deps);
      expect(result.verdict).toBe(verdict);
    }
  });
});
