import { learnableKey } from '../../../src/domain/reports';

describe('reports (a valid address that is no fixture, without +tag, lower case)', () => {
  it.each([
    ['an invalid address', 'not an address', null],
    ['a fixture', 'Spam+ci@spam-check.test', null],
    ['an ordinary address', 'Jo+News@Example.de', 'jo@example.de'],
  ])('when the report is about %s, it is kept under %s', (_name, email, key) => {
    expect(learnableKey(email)).toBe(key);
  });
});
