import { isFreeProvider } from '../../../src/domain/free-provider';
import { FREE } from './support';

describe('free providers (free-email-domains and email-providers, without their throw-away domains, and our overlay)', () => {
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

describe('free provider (an exact domain of the list)', () => {
  it.each([
    ['a subdomain of a free provider (below)', 'mail.gmx.de', false],
    ['the provider (at)', 'gmx.de', true],
    ['a throw-away domain the package also lists (not free: disposable)', 'mailinator.com', false],
    ['a provider from our overlay', 'vodafone.de', true],
    ['a provider that only email-providers lists', 'mailbox.org', true],
  ])('when the domain is %s, it is free: %s', (_name, domain, free) => {
    expect(isFreeProvider(domain)).toBe(free);
  });
});
