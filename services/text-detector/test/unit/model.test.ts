import { readModelFile } from '../../src/data-access/model-file';
import { normaliseForModel } from '../../src/domain/model/canonical';
import { FeatureExtractor } from '../../src/domain/model/extractor';
import { unfamiliarity } from '../../src/domain/model/familiarity';

describe('the model as shipped', () => {
  const model = readModelFile();

  it('is trained on German, French and English, with a calibration for each and for the rest', () => {
    expect(model.header.languages).toEqual(['en', 'de', 'fr']);
    expect(Object.keys(model.header.calibration.intercepts).sort()).toEqual(['de', 'en', 'fr', 'other']);
    expect(model.header.calibration.slope).toBeGreaterThan(0);
  });

  it('when the same text is extracted twice, the features are identical (no state leaks between texts)', () => {
    const extractor = new FeatureExtractor(model.header.space);
    const text = { title: 'Hallo', body: 'Gewinnen Sie jetzt! https://example.org', findings: [] };
    const first = extractor.extract(text).vector;
    extractor.extract({ title: 'other', body: 'a different text entirely' });
    const again = extractor.extract(text).vector;
    expect(Array.from(again.indices)).toEqual(Array.from(first.indices));
    expect(Array.from(again.values)).toEqual(Array.from(first.values));
  });

  it('when a rule finding is given, it is one more feature with the finding weight as its value', () => {
    const extractor = new FeatureExtractor(model.header.space);
    const text = { title: '', body: 'see https://t.co/abc' };
    const plain = extractor.extract(text).vector;
    const withRule = extractor.extract({
      ...text,
      findings: [{ code: 'TEXT_URL_SHORTENER', weight: 0.5 }],
    }).vector;
    expect(withRule.indices.length).toBe(plain.indices.length + 1);
    expect(Array.from(withRule.values)).toContain(0.5);
  });
});

describe('the canonical text of the model', () => {
  it.each([
    ['a real link', 'read https://example.org/a?b=1 now', 'read urltok now'],
    [
      'the bare http the tweet corpora left for links',
      'Projekträume ausgezeichnet http #Berlin',
      'projekträume ausgezeichnet urltok',
    ],
    ['a mention', 'RT @user: Was ist das @DB_Bahn', 'rt mentiontok:was ist das mentiontok'],
    ['an address (not a mention)', 'write to anna@example.org', 'write to emailtok'],
    ['digits', 'call 0800 123', 'call 0000 000'],
  ])('when the text has %s, it becomes a placeholder', (_name, text, canonical) => {
    expect(normaliseForModel(text)).toBe(canonical);
  });
});

describe('familiarity (when the model may not decide spam alone)', () => {
  const header = { languages: ['en', 'de', 'fr'], minCoverage: 0.5 };
  const prose = 'Das ist ein ganz gewöhnlicher Beitrag über den Radweg an der Hauptstraße in Bonn.';

  it.each([
    ['no language detected', prose, null, 1, 'language'],
    ['a language the model was not trained on', prose, 'pl', 1, 'language'],
    ['coverage just below the minimum', prose, 'de', 0.4999, 'vocabulary'],
    ['coverage at the minimum', prose, 'de', 0.5, undefined],
    ['coverage above the minimum', prose, 'de', 0.9, undefined],
  ])('when the text has %s, the answer is %s', (_name, text, language, coverage, expected) => {
    expect(unfamiliarity(text, language, coverage, header)).toBe(expected);
  });

  it.each([
    ['just below 6 % code symbols', `${'a'.repeat(95)}${'{}'.repeat(2)}{`, undefined],
    ['exactly 6 %', `${'a'.repeat(94)}${'{}'.repeat(3)}`, undefined],
    ['just above 6 %', `${'a'.repeat(93)}${'{}'.repeat(3)}{`, 'form'],
    ['source code', 'for (let i = 0; i < n; i++) { total += values[i]; } return { total };', 'form'],
    [
      'separator lines of one symbol',
      `Mit freundlichen Grüßen\n${'='.repeat(40)}\n${'a'.repeat(60)}`,
      undefined,
    ],
    ['runs of three of one symbol', `${'a'.repeat(90)}${' }}}'.repeat(3)}`, 'form'],
  ])('when the text has %s, it is judged by its form', (_name, text, expected) => {
    expect(unfamiliarity(text, 'en', 1, header)).toBe(expected);
  });
});
