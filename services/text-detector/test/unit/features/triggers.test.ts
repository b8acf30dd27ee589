import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { normaliseForModel, words } from '../../../src/domain/model/canonical';
import { CUES } from '../../../src/domain/model/cues';
import { OFFER_LISTS } from '../../../src/domain/model/offers';
import { SUPPORT_LIST } from '../../../src/domain/model/comment-patterns';
import { PhraseMatcher, triggerOf } from '../../../src/domain/model/triggers';

describe('the trigger word of a phrase', () => {
  it.each([
    ['(?:personal|payday|quick) loans?', 'loan'],
    ['help ?(?:line|desk)s?', 'help'],
    ['sofortkredit\\w*', 'sofortkredit'],
    ['account (?:is |has been )?(?:suspended|locked)', 'account'],
    ['toll[- ]?free', 'toll'],
    ['online-?casinos?', 'online'],
    ["prêts? (?:personnel|d'argent)", 'prêt'],
  ])('when the phrase is %s, it is %s', (phrase, trigger) => {
    expect(triggerOf(phrase)).toEqual([trigger]);
  });

  it('when the phrase is a class of symbols, each symbol triggers it', () => {
    expect(triggerOf('[$€£]')).toEqual(['$', '€', '£']);
  });

  it('when every word of a phrase is inside a group, it is refused (it must be split)', () => {
    expect(() => triggerOf('(?:kundendienst|hotline)')).toThrow(/no word outside groups/);
  });
});

describe('phrase lists matched by their triggers', () => {
  const lists = [...CUES, ...OFFER_LISTS, SUPPORT_LIST];
  const matcher = new PhraseMatcher(lists);
  const handmade = join(__dirname, '..', '..', '..', 'model', 'handmade');
  const texts = ['comments.jsonl', 'contact.jsonl', 'commerce.jsonl'].flatMap((file) =>
    readFileSync(join(handmade, file), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const row = JSON.parse(line) as { title: string; body: string };
        return normaliseForModel(`${row.title} ${row.body}`);
      }),
  );

  it('when the texts are the made-up set, the lists found are those the expressions alone find', () => {
    expect(texts.length).toBeGreaterThan(100);
    for (const text of texts) {
      const alone = lists.filter((list) => list.pattern.test(text)).map((list) => list.name);
      expect(matcher.matches(text, words(text))).toEqual(alone);
    }
  });

  it('when no word of a text triggers a list, its expression is not tried', () => {
    const never = new PhraseMatcher([{ name: 'x', phrases: ['viagra'], pattern: /./ }]);
    expect(never.matches('an ordinary sentence', words('an ordinary sentence'))).toEqual([]);
    expect(never.matches('cheap viagra', words('cheap viagra'))).toEqual(['x']);
  });
});
