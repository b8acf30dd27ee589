import { disposableDomainOf } from '../../../src/domain/disposable';
import { disposable, WIDELY_USED } from './support';

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
