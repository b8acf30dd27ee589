import { shoutingRule } from '../../../src/domain/rules/shouting';
import { weightOf } from './support';

describe('TEXT_SHOUTING (over 70 % capitals among 20+ letters, 2+ runs of !!!, or many !; 0.3)', () => {
  const mixed = (upper: number, lower: number) => `${'A'.repeat(upper)} ${'b'.repeat(lower)}`;

  it.each([
    ['14 of 20 letters in capitals, 70 % (below: not over)', undefined, mixed(14, 6)],
    ['15 of 20, 75 % (at)', 0.3, mixed(15, 5)],
    ['20 of 20 (above)', 0.3, mixed(20, 0)],
    ['19 letters all in capitals (below: too few letters)', undefined, mixed(19, 0)],
    ['one run of !!! (below)', undefined, 'great offer!!! now'],
    ['two runs of !!! (at)', 0.3, 'great offer!!! now!!!'],
    [
      '5 single ! among 100 letters, 5 % (below: not over)',
      undefined,
      `${'word! '.repeat(5)}${'a'.repeat(80)}`,
    ],
    ['5 single ! among 99 letters (at: over 5 %)', 0.3, `${'word! '.repeat(5)}${'a'.repeat(79)}`],
    ['4 single ! among 10 letters (below: fewer than 5)', undefined, 'ab! ab! ab! ab! ab'],
  ])('when the text has %s, the weight is %s', (_name, weight, text) => {
    expect(weightOf(shoutingRule, 'TEXT_SHOUTING', text)).toBe(weight);
  });
});
