import { suggestDomain } from '../../../src/domain/typo';

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
