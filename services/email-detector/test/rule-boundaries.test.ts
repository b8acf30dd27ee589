import { SUPPORTED_LANGUAGES } from '@spam-check/contracts';
import { disposableEmailBlocklist } from 'disposable-email-domains-js';
import { domainToASCII } from 'node:url';
import { checkEmail, type EmailCheckDeps } from '../src/domain/check-email';
import { createDisposableDomains, disposableDomainOf } from '../src/domain/disposable';
import { FIXTURE_DOMAIN, fixtureVerdict } from '../src/domain/fixtures';
import { isFreeProvider } from '../src/domain/free-provider';
import { judgeMailServers, type MailServers } from '../src/domain/mail-servers';
import { createOperatorList, operatorDecision } from '../src/domain/operator-lists';
import { looksRandom } from '../src/domain/random-local-part';
import { learnableKey } from '../src/domain/reports';
import { isRoleAccount } from '../src/domain/role-account';
import { REASON_WEIGHTS, scoreOf, verdictOf } from '../src/domain/scoring';
import { suggestDomain } from '../src/domain/typo';

/**
 * Each rule of the e-mail detector at its boundary: just below (does not fire), at (the first input that
 * fires) and above its threshold. Rules without a number get their nearest non-matching and matching inputs.
 * The syntax rules' length limits (local part 64, label 63, address 254) are at their boundaries in
 * syntax.test.ts.
 */

const disposable = createDisposableDomains(disposableEmailBlocklist());

describe('scoring thresholds (suspicious from 0.5, spam from 0.8)', () => {
  it.each([
    [0.499, 'ham'],
    [0.5, 'suspicious'],
    [0.501, 'suspicious'],
    [0.799, 'suspicious'],
    [0.8, 'spam'],
    [0.801, 'spam'],
  ])('when the score is %d, the verdict is %s', (score, verdict) => {
    expect(verdictOf(score)).toBe(verdict);
  });

  it('when two weak signals meet, they cross the suspicious threshold that each alone stays below', () => {
    expect(scoreOf([REASON_WEIGHTS.EMAIL_RANDOM_LOCAL_PART])).toEqual({ score: 0.45, verdict: 'ham' });
    expect(scoreOf([REASON_WEIGHTS.EMAIL_RANDOM_LOCAL_PART, REASON_WEIGHTS.EMAIL_FREE_PROVIDER])).toEqual({
      score: 0.505,
      verdict: 'suspicious',
    });
  });
});

describe('random-looking local part (judged from 8 characters)', () => {
  it.each([
    ['7 characters that switch letters and digits (below: too short)', 'x7k2m9p', false],
    ['8 such characters (at)', 'x7k2m9p4', true],
    ['9 (above)', 'x7k2m9p4q', true],
    ['15 hex characters with two switches (below: not hex enough, too regular)', 'aaaaaaaa1111111', false],
    ['16 hex characters (at)', 'aaaaaaaa11111111', true],
    ['17 hex characters (above)', 'aaaaaaaa111111111', true],
    ['3 letter/digit switches (below)', 'abcdef1ghijk2', false],
    ['4 switches (at)', 'abcdef1ghijk2l', true],
    ['5 switches (above)', 'abcdef1ghijk2l3', true],
    ['10 letters with 2 vowels, 20 % (below: not under)', 'bcdfgbcdae', false],
    ['11 letters with 2 vowels, 18 % (at)', 'bcdfgbcdaef', true],
    ['12 letters with 2 vowels, 17 % (above)', 'bcdfgbcdaefg', true],
  ])('when the local part has %s, it is random: %s', (_name, local, random) => {
    expect(looksRandom(local)).toBe(random);
  });
});

describe('role account (a listed name, ignoring . _ -)', () => {
  it.each([
    ['one letter short of a role name (below)', 'admi', false],
    ['the role name (at)', 'admin', true],
    ['the name with separators', 'ad.m_i-n', true],
    ['one letter more (above: another name)', 'adminx', false],
  ])('when the local part is %s, it is a role account: %s', (_name, local, role) => {
    expect(isRoleAccount(local)).toBe(role);
  });
});

describe('free provider (an exact domain of the list)', () => {
  it.each([
    ['a subdomain of a free provider (below)', 'mail.gmx.de', false],
    ['the provider (at)', 'gmx.de', true],
    ['a throw-away domain the package also lists (not free: disposable)', 'mailinator.com', false],
    ['a provider from our overlay', 'email.de', true],
  ])('when the domain is %s, it is free: %s', (_name, domain, free) => {
    expect(isFreeProvider(domain)).toBe(free);
  });
});

describe('disposable domain (a listed domain or any subdomain of one)', () => {
  it.each([
    ['a longer domain ending in a listed one (below)', 'mailinator.com.example', null],
    ['the listed domain (at)', 'mailinator.com', 'mailinator.com'],
    ['a subdomain two levels down (above)', 'a.b.mailinator.com', 'mailinator.com'],
    ['a bare top-level label', 'com', null],
  ])('when the domain is %s, it matches %s', (_name, domain, entry) => {
    expect(disposableDomainOf(domain, disposable)).toBe(entry);
  });
});

describe('typo suggestion (sift3 distance at most 2 from a popular domain)', () => {
  it.each([
    ['distance 0.5 (below)', 'laposte.nett', 'laposte.net'],
    ['distance 2 (at)', 'lapostte.nett', 'laposte.net'],
    ['distance 2.5 (above)', 'lapostte.netts', null],
    ['a real country code instead of the target one (not a slip)', 'hotmail.es', null],
    ['a known slip of .com', 'gmail.cm', 'gmail.com'],
    ['a target name under 5 letters (gmx, web: too many real neighbours)', 'wem.de', null],
    ['a target name of 5 letters', 'ymial.com', 'ymail.com'],
    ['a known real neighbour', 'cloud.com', null],
  ])('when the domain is %s, the suggestion is %s', (_name, domain, suggestion) => {
    expect(suggestDomain(domain)).toBe(suggestion);
  });
});

describe('operator and client lists (an address, or a domain with its subdomains; allow wins)', () => {
  const lists = {
    allow: createOperatorList(['boss@blocked.example'], domainToASCII),
    deny: createOperatorList(['blocked.example', 'Spammer+x@Example.org'], domainToASCII),
  };

  it.each([
    ['a domain that only ends like the listed one (below)', 'a', 'notblocked.example', null],
    ['the listed domain (at)', 'a', 'blocked.example', 'deny'],
    ['a subdomain of it (above)', 'a', 'x.blocked.example', 'deny'],
    ['another mailbox at the domain of a listed address', 'other', 'example.org', null],
    ['the listed address (its +tag and case ignored)', 'spammer', 'example.org', 'deny'],
    ['an allow-listed address in a deny-listed domain', 'boss', 'blocked.example', 'allow'],
  ])('when the address is %s, the decision is %s', (_name, localBase, domain, decision) => {
    expect(operatorDecision(lists, localBase, domain)).toBe(decision);
  });
});

describe('test fixtures (a verdict name at spam-check.test)', () => {
  it.each([
    ['a verdict name at another domain (below)', 'spam', `${FIXTURE_DOMAIN}.example`, null],
    ['a verdict name at the fixture domain (at)', 'suspicious', FIXTURE_DOMAIN, 'suspicious'],
    ['another name at the fixture domain', 'spammer', FIXTURE_DOMAIN, null],
  ])('when the address is %s, the fixture verdict is %s', (_name, localBase, domain, verdict) => {
    expect(fixtureVerdict(localBase, domain)).toBe(verdict);
  });
});

describe('reports (a valid address that is no fixture, without +tag, lower case)', () => {
  it.each([
    ['an invalid address', 'not an address', null],
    ['a fixture', 'Spam+ci@spam-check.test', null],
    ['an ordinary address', 'Jo+News@Example.de', 'jo@example.de'],
  ])('when the report is about %s, it is kept under %s', (_name, email, key) => {
    expect(learnableKey(email)).toBe(key);
  });
});

describe('DNS judgement (what the mail servers say; no number)', () => {
  it.each([
    [{ outcome: 'mx', hosts: ['mx.example'] }, 'pass', null, true],
    [{ outcome: 'implicit_mx' }, 'pass', null, true],
    [{ outcome: 'null_mx' }, 'fail', 'EMAIL_NULL_MX', false],
    [{ outcome: 'nxdomain' }, 'fail', 'EMAIL_DOMAIN_NOT_FOUND', false],
    [{ outcome: 'no_mail_server' }, 'fail', 'EMAIL_NO_MAIL_SERVER', false],
    [{ outcome: 'unknown', error: 'ETIMEOUT' }, 'unknown', 'EMAIL_DNS_UNKNOWN', true],
  ] as const)(
    'when DNS says %j, the check is %s with reason %s, usable %s',
    (servers, status, reason, usable) => {
      expect(judgeMailServers(servers as MailServers)).toEqual({ status, reason, usable });
    },
  );
});

describe('the rules together, through the domain function', () => {
  const deps: EmailCheckDeps = {
    disposableDomains: disposable,
    allowList: createOperatorList([], domainToASCII),
    denyList: createOperatorList([], domainToASCII),
    lookupMailServers: null,
  };

  it.each([
    ['x7k2m9p@gmx.de', ['EMAIL_FREE_PROVIDER'], 'ham'],
    ['x7k2m9p4@gmx.de', ['EMAIL_FREE_PROVIDER', 'EMAIL_RANDOM_LOCAL_PART'], 'suspicious'],
    ['admin@gmx.de', ['EMAIL_ROLE_ACCOUNT', 'EMAIL_FREE_PROVIDER'], 'ham'],
    ['jane@lapostte.nett', ['EMAIL_DOMAIN_TYPO'], 'ham'],
  ])('when %s is checked, the reasons are %j and the verdict %s', async (email, codes, verdict) => {
    for (const language of SUPPORTED_LANGUAGES) {
      const result = await checkEmail({ email, language, requestId: 'boundary' }, deps);
      expect(result.reasons.map((reason) => reason.code)).toEqual(codes);
      expect(result.reasons.map((reason) => reason.weight)).toEqual(
        codes.map((code) => REASON_WEIGHTS[code as keyof typeof REASON_WEIGHTS]),
      );
      expect(result.verdict).toBe(verdict);
    }
  });
});
