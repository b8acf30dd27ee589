import { fixtureVerdict } from '../../../src/domain/rules';

describe('test fixture markers', () => {
  it.each([
    ['spam-check-test-spa', undefined],
    ['spam-check-test-spam', 'spam'],
    ['x spam-check-test-spammy', 'spam'],
    ['spam-check-test-ha', undefined],
    ['spam-check-test-ham', 'ham'],
    ['spam-check-test-ham and spam-check-test-spam', 'spam'],
  ])('when the text is "%s", the fixture verdict is %s', (text, verdict) => {
    expect(fixtureVerdict(text)).toBe(verdict);
  });
});
