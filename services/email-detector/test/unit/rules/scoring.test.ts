import { EMAIL_REASONS, SUPPORTED_LANGUAGES, type EmailReasonCode } from '@spam-check/contracts';
import { REASON_WEIGHTS, scoreOf, VERDICT_THRESHOLDS, verdictOf } from '../../../src/domain/scoring';
import { readme } from './support';

describe('scoring', () => {
  it.each([
    [[], 0, 'ham'],
    [[REASON_WEIGHTS.EMAIL_FREE_PROVIDER], 0.1, 'ham'],
    [[REASON_WEIGHTS.EMAIL_ROLE_ACCOUNT], 0.3, 'ham'],
    [[REASON_WEIGHTS.EMAIL_DOMAIN_TYPO], 0.4, 'ham'],
    [[REASON_WEIGHTS.EMAIL_RANDOM_LOCAL_PART], 0.45, 'ham'],
    [[REASON_WEIGHTS.EMAIL_RANDOM_LOCAL_PART, REASON_WEIGHTS.EMAIL_FREE_PROVIDER], 0.505, 'suspicious'],
    [[REASON_WEIGHTS.EMAIL_RANDOM_LOCAL_PART, REASON_WEIGHTS.EMAIL_ROLE_ACCOUNT], 0.615, 'suspicious'],
    [[REASON_WEIGHTS.EMAIL_NO_MAIL_SERVER], 0.7, 'suspicious'],
    [[REASON_WEIGHTS.EMAIL_NO_MAIL_SERVER, REASON_WEIGHTS.EMAIL_DOMAIN_TYPO], 0.82, 'spam'],
    [[REASON_WEIGHTS.EMAIL_DISPOSABLE_DOMAIN], 0.9, 'spam'],
    [[REASON_WEIGHTS.EMAIL_DOMAIN_NOT_FOUND], 0.9, 'spam'],
    [[REASON_WEIGHTS.EMAIL_INVALID_SYNTAX], 1, 'spam'],
    [[REASON_WEIGHTS.EMAIL_DISPOSABLE_DOMAIN, REASON_WEIGHTS.EMAIL_ALLOW_LISTED], 0, 'ham'],
    [[REASON_WEIGHTS.EMAIL_DNS_UNKNOWN], 0, 'ham'],
  ])('weights %j give score %d (%s)', (weights, score, verdict) => {
    expect(scoreOf(weights)).toEqual({ score, verdict });
  });

  it('documents its thresholds and every weight in the README', () => {
    expect(readme).toContain(`${VERDICT_THRESHOLDS.spam}`);
    expect(readme).toContain(`${VERDICT_THRESHOLDS.suspicious}`);
    for (const [code, weight] of Object.entries(REASON_WEIGHTS))
      expect(readme).toMatch(new RegExp(`\`${code}\`[^\\n]*\\| ${weight} `));
  });
});

describe('the reason catalogue', () => {
  it.each(Object.keys(EMAIL_REASONS) as EmailReasonCode[])(
    '%s has a weight and a message in every language',
    (code) => {
      expect(typeof REASON_WEIGHTS[code]).toBe('number');
      for (const language of SUPPORTED_LANGUAGES)
        expect(EMAIL_REASONS[code][language].length).toBeGreaterThan(10);
    },
  );
});

describe('scoring thresholds (suspicious from 0.5, spam from 0.8)', () => {
  it.each([
    [0.499, 'ham'],
    [0.5, 'suspicious'],
    [0.501, 'suspicious'],
    [0.799, 'suspicious'],
    [0.8, 'spam'],
    [0.801, 'spam'],
  ])('when the score is %d, the verdict is %s', (score, verdict) => {
    expect(verdictOf(score)).toBe(verdict);
  });

  it('when two weak signals meet, they cross the suspicious threshold that each alone stays below', () => {
    expect(scoreOf([REASON_WEIGHTS.EMAIL_RANDOM_LOCAL_PART])).toEqual({ score: 0.45, verdict: 'ham' });
    expect(scoreOf([REASON_WEIGHTS.EMAIL_RANDOM_LOCAL_PART, REASON_WEIGHTS.EMAIL_FREE_PROVIDER])).toEqual({
      score: 0.505,
      verdict: 'suspicious',
    });
  });
});
