import { suggestDomain } from '../../../src/domain/typo';
import { NO_SUGGESTION, TYPOS } from './support';

describe('did-you-mean suggestions', () => {
  it.each(TYPOS)('%s → %s', (typo, domain) => {
    expect(suggestDomain(typo)).toBe(domain);
  });

  it.each(NO_SUGGESTION)('%s gets no suggestion', (domain) => {
    expect(suggestDomain(domain)).toBeNull();
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
