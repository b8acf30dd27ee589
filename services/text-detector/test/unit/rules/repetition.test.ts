import { repetitionRule } from '../../../src/domain/rules/repetition';
import { weightOf } from './support';

describe('TEXT_REPETITION (a character 10 times, a word over 30 % of 20+, a line 3 times; 0.3)', () => {
  const words = (repeated: number, total: number) =>
    [
      ...Array<string>(repeated).fill('buy'),
      ...Array.from({ length: total - repeated }, (_, i) => `w${i}x`),
    ].join(' ');
  const line = 'call us today please';

  it.each([
    ['a letter 9 times in a row (below)', undefined, `so${'o'.repeat(8)} good`],
    ['a letter 10 times (at)', 0.3, `so${'o'.repeat(9)} good`],
    ['a letter 11 times (above)', 0.3, `so${'o'.repeat(10)} good`],
    [
      'a ruler of 20 dashes (below: punctuation rulers do not count)',
      undefined,
      `title\n${'-'.repeat(20)}\ntext`,
    ],
    ['one word 6 times in 20, 30 % (below: not over)', undefined, words(6, 20)],
    ['one word 7 times in 20, 35 % (at)', 0.3, words(7, 20)],
    ['one word 19 times in 19 (below: fewer than 20 words)', undefined, words(19, 19)],
    ['a line twice (below)', undefined, `${line}\n${line}`],
    ['a line 3 times (at)', 0.3, `${line}\n${line}\n${line}`],
    ['a line 4 times (above)', 0.3, `${line}\n${line}\n${line}\n${line}`],
    ['a 9-character line 3 times (below: too short to count)', undefined, 'call now!\ncall now!\ncall now!'],
  ])('when the text has %s, the weight is %s', (_name, weight, text) => {
    expect(weightOf(repetitionRule, 'TEXT_REPETITION', text)).toBe(weight);
  });
});
