import { createDenyList } from '../../../src/domain/rules';

describe('operator and client deny terms (a listed term anywhere in the lower-case text)', () => {
  it.each([
    ['the term with a letter missing (below)', false, 'casino royal'],
    ['the term (at)', true, 'casino royale'],
    ['the term inside longer text (above)', true, 'win at casino royales tonight'],
    [
      'the term in other case and width (compiled lower-case, NFKC)',
      true,
      'ｃａｓｉｎｏ royale'.normalize('NFKC'),
    ],
  ])('when the text has %s, it is deny-listed: %s', (_name, listed, text) => {
    expect(createDenyList(['', 'Casino Royale', 'casino royale'])(text)).toBe(listed);
  });

  it('when the only term is empty, nothing is deny-listed', () => {
    expect(createDenyList([''])('anything at all')).toBe(false);
  });

  it('when one of many long terms ends a long text, it is found', () => {
    const terms = Array.from({ length: 1000 }, (_, i) => `${'a'.repeat(90)}b${i}`);
    expect(createDenyList(terms)('a'.repeat(100_000))).toBe(false);
    expect(createDenyList(terms)(`${'a'.repeat(100_000)}b999`)).toBe(true);
  });
});
