import { SUPPORTED_LANGUAGES } from '@spam-check/contracts';
import { checkEmail } from '../../../src/domain/check-email';
import { FIXTURE_DOMAIN, fixtureVerdict } from '../../../src/domain/fixtures';
import { FIXTURE_WEIGHTS } from '../../../src/domain/scoring';
import { readme, deps } from './support';

describe('fixtures', () => {
  it.each(Object.entries(FIXTURE_WEIGHTS))('%s@spam-check.test is documented in the README', (local) => {
    expect(readme).toContain(`${local}@${FIXTURE_DOMAIN}`);
  });

  it.each([
    ['spam@spam-check.test', 'spam'],
    ['suspicious@spam-check.test', 'suspicious'],
    ['ham@spam-check.test', 'ham'],
  ])('%s gives %s in every language', async (email, verdict) => {
    for (const language of SUPPORTED_LANGUAGES) {
      const result = await checkEmail({ email, language, requestId: 'fixture' }, deps);
      expect(result.verdict).toBe(verdict);
    }
  });
});

describe('test fixtures (a verdict name at spam-check.test)', () => {
  it.each([
    ['a verdict name at another domain (below)', 'spam', `${FIXTURE_DOMAIN}.example`, null],
    ['a verdict name at the fixture domain (at)', 'suspicious', FIXTURE_DOMAIN, 'suspicious'],
    ['another name at the fixture domain', 'spammer', FIXTURE_DOMAIN, null],
  ])('when the address is %s, the fixture verdict is %s', (_name, localBase, domain, verdict) => {
    expect(fixtureVerdict(localBase, domain)).toBe(verdict);
  });
});
