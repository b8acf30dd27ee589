import { linksRule } from '../../../src/domain/rules/links';
import { weightOf, links } from './support';

describe('TEXT_LINKS (3 links or more; 0.1 per link, at most 0.6)', () => {
  it.each([
    ['2 links (below)', undefined, 2],
    ['3 links (at)', 0.3, 3],
    ['4 links (above)', 0.4, 4],
    ['6 links (at the cap)', 0.6, 6],
    ['7 links (above the cap)', 0.6, 7],
  ])('when the text has %s, the weight is %s', (_name, weight, count) => {
    const found = weightOf(linksRule, 'TEXT_LINKS', `See ${links(count)} for details of the offer.`);
    if (weight === undefined) expect(found).toBeUndefined();
    else expect(found).toBeCloseTo(weight, 12);
  });
});

describe('TEXT_LINK_DENSITY (links over a third, 0.33, of the characters)', () => {
  // One 33-character link, then ordinary text: the share of link characters is set by the text's length.
  const link = 'https://example.org/abcdefghijklm';
  const text = (length: number) => `${link} ${'a'.repeat(length - link.length - 1)}`;

  it.each([
    ['34 % (above)', 0.4, 97],
    ['33 % (at: not over a third)', undefined, 100],
    ['32 % (below)', undefined, 104],
  ])('when the link makes up %s of the text, the weight is %s', (_name, weight, length) => {
    expect(link).toHaveLength(33);
    expect(weightOf(linksRule, 'TEXT_LINK_DENSITY', text(length))).toBe(weight);
  });

  it('when the text has no link at all, there is no density finding however short it is', () => {
    expect(weightOf(linksRule, 'TEXT_LINK_DENSITY', 'example.org')).toBeUndefined();
  });
});

describe('TEXT_URL_SHORTENER (any shortener link; 0.4 + 0.1 each, at most 0.6)', () => {
  it.each([
    ['a host that only ends like a shortener (below)', undefined, 'https://notbit.ly/abc'],
    ['one shortener link (at)', 0.5, 'https://bit.ly/abc'],
    ['two (above: the cap)', 0.6, 'https://bit.ly/abc https://www.tinyurl.com/xyz'],
    ['three (above the cap)', 0.6, 'https://bit.ly/a https://t.co/b https://is.gd/c'],
  ])('when the text has %s, the weight is %s', (_name, weight, text) => {
    const found = weightOf(linksRule, 'TEXT_URL_SHORTENER', `look ${text} now`);
    if (weight === undefined) expect(found).toBeUndefined();
    else expect(found).toBeCloseTo(weight, 12);
  });
});
