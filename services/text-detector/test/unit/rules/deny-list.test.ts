import { denyListed } from '../../../src/domain/rules';

describe('operator and client deny terms (a listed term anywhere in the lower-case text)', () => {
  it.each([
    ['the term with a letter missing (below)', undefined, 'casino royal'],
    ['the term (at)', 'casino royale', 'casino royale'],
    ['the term inside longer text (above)', 'casino royale', 'win at casino royales tonight'],
  ])('when the text has %s, it is deny-listed by %s', (_name, term, text) => {
    expect(denyListed(text, ['', 'casino royale'])).toBe(term);
  });

  it('when the only term is empty, nothing is deny-listed', () => {
    expect(denyListed('anything at all', [''])).toBeUndefined();
  });
});
