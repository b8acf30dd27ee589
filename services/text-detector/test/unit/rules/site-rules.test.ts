import type { TextResult } from '@spam-check/contracts';
import { applySiteRules } from '../../../src/domain/rules';

const OPTIONS = { language: 'en', spamThreshold: 0.8, suspiciousThreshold: 0.5 } as const;

function judged(overrides: { language?: string | null; links?: number; score?: number } = {}) {
  const score = overrides.score ?? 0.1;
  const verdict: TextResult['verdict'] = score >= 0.8 ? 'spam' : score >= 0.5 ? 'suspicious' : 'ham';
  return {
    spam: verdict === 'spam',
    verdict,
    score,
    reasons: [],
    language: overrides.language === undefined ? 'de' : overrides.language,
    engine: 'model' as const,
    signals: { links: overrides.links ?? 0, link_density: 0, shorteners: 0, uppercase_ratio: 0, length: 80 },
  };
}
const codes = (result: { reasons: { code: string }[] }) => result.reasons.map((reason) => reason.code);

describe('site rules', () => {
  it('when the client has none, the result is the same object', () => {
    const result = judged();
    expect(applySiteRules(result, undefined, OPTIONS)).toBe(result);
    expect(applySiteRules(result, { allowed_languages: null, max_links: null }, OPTIONS)).toBe(result);
  });

  it('when the language cannot be told, the language rule lets the text pass', () => {
    const result = applySiteRules(judged({ language: null }), { allowed_languages: ['fr'] }, OPTIONS);
    expect(result.verdict).toBe('ham');
  });

  it('when the language is not allowed, a ham text becomes suspicious at the suspicious threshold', () => {
    const result = applySiteRules(judged(), { allowed_languages: ['fr', 'en'] }, OPTIONS);
    expect(result).toMatchObject({ verdict: 'suspicious', spam: false, score: 0.5, engine: 'rules' });
    expect(codes(result)).toEqual(['TEXT_LANGUAGE_NOT_ALLOWED']);
  });

  it.each([
    [2, 2, 'ham'],
    [2, 3, 'suspicious'],
    [2, 4, 'spam'],
    [0, 1, 'spam'],
    [1, 1, 'ham'],
    [1, 2, 'spam'],
  ])('when at most %i links are allowed and the text holds %i, it is %s', (max, links, verdict) => {
    const result = applySiteRules(judged({ links }), { max_links: max }, OPTIONS);
    expect(result.verdict).toBe(verdict);
    expect(codes(result).includes('TEXT_TOO_MANY_LINKS')).toBe(verdict !== 'ham');
  });

  it('when the verdict is above the floor already, it and its stage stay, with the reason added', () => {
    const result = applySiteRules(judged({ score: 0.93 }), { allowed_languages: ['en'] }, OPTIONS);
    expect(result).toMatchObject({ verdict: 'spam', score: 0.93, engine: 'model' });
    expect(codes(result)).toEqual(['TEXT_LANGUAGE_NOT_ALLOWED']);
  });
});
