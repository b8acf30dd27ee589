import { normaliseText } from '../../../src/domain/normalise';
import { runRules } from '../../../src/domain/rules';
import { obfuscationRule } from '../../../src/domain/rules/obfuscation';
import { weightOf } from './support';

describe('TEXT_OBFUSCATION (one obfuscated item; 0.35 + 0.15 each, at most 0.7)', () => {
  it.each([
    ['4 spaced letters (below)', undefined, 'buy v i a g now', 0, 0],
    ['5 spaced letters (at)', 0.5, 'buy v i a g r now', 0, 0],
    ['a digit in a spam word (at)', 0.5, 'buy v1agra now', 0, 0],
    ['the plain spam word (below)', undefined, 'buy viagra now', 0, 0],
    ['2 invisible characters (below)', undefined, 'free money', 2, 0],
    ['3 invisible characters (at)', 0.5, 'free money', 3, 0],
    ['4 invisible characters (above: still one item)', 0.5, 'free money', 4, 0],
    ['1 look-alike letter (at)', 0.5, 'free money', 0, 1],
    ['two items (above)', 0.65, 'buy v1agra and fr33 stuff', 0, 0],
    ['three items (above: the cap)', 0.7, 'buy v1agra and fr33 stuff', 3, 0],
    ['four items (above the cap)', 0.7, 'buy v1agra and fr33 stuff', 3, 1],
  ])('when the text has %s, the weight is %s', (_name, weight, text, invisible, lookAlike) => {
    const found = weightOf(obfuscationRule, 'TEXT_OBFUSCATION', text, {
      invisibleCharacters: invisible,
      lookAlikeCharacters: lookAlike,
    });
    if (weight === undefined) expect(found).toBeUndefined();
    else expect(found).toBeCloseTo(weight, 12);
  });

  it('when invisible characters hide in a real text, normalisation counts them and the rule fires from 3', () => {
    const zw = '\u200b';
    expect(runRules(normaliseText({ title: '', body: `fr${zw}ee mo${zw}ney` })).findings).toEqual([]);
    const evidence = runRules(normaliseText({ title: '', body: `fr${zw}ee mo${zw}ney fo${zw}r you` }));
    expect(evidence.signals.invisible_characters).toBe(3);
    expect(evidence.findings).toEqual([{ code: 'TEXT_OBFUSCATION', weight: 0.5 }]);
  });
});
