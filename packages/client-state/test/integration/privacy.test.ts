import { keyedHash, privacyConfigShape, privacyOf } from '@spam-check/client-state';
import { ConfigError } from '@spam-check/service-kit';
import { z } from 'zod';

const parse = (env: Record<string, string>) =>
  privacyOf({ NODE_ENV: 'development', ...z.object(privacyConfigShape).parse(env), ...env });

const problemsOf = (env: Record<string, string>): string => {
  try {
    parse({ NODE_ENV: 'production', REDIS_URL: 'redis://r', ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.join('\n');
    throw error;
  }
  return '';
};

describe('keyedHash', () => {
  it('is HMAC-SHA-256 in hex (RFC 4231, test case 2)', () => {
    expect(keyedHash('Jefe', 'what do ya want for nothing?')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  it('when the key differs, the same address hashes differently', () => {
    expect(keyedHash('a'.repeat(32), 'jo@example.org')).not.toBe(keyedHash('b'.repeat(32), 'jo@example.org'));
  });
});

describe('PRIVACY_HASH_KEY and FEEDBACK_REPORT_RETENTION_DAYS', () => {
  it('in production, a missing, published or short key is refused, naming the variable and never the value', () => {
    expect(problemsOf({})).toContain('PRIVACY_HASH_KEY: required in production');
    for (const published of [
      'replace-me-with-openssl-rand-hex-32',
      'development-privacy-hash-key-not-for-production',
    ])
      expect(problemsOf({ PRIVACY_HASH_KEY: published })).toContain('PRIVACY_HASH_KEY: is published');
    expect(problemsOf({ PRIVACY_HASH_KEY: 'x'.repeat(20) })).toContain('shorter than 32');
    expect(problemsOf({ PRIVACY_HASH_KEY: 'x'.repeat(20) })).not.toContain('x'.repeat(20));
    expect(problemsOf({ PRIVACY_HASH_KEY: 'k'.repeat(64) })).toBe('');
  });

  it('in embedded mode, each process generates a key of its own; with Redis, the development key is used', () => {
    const one = parse({});
    const two = parse({});
    expect(one.privacyHashKeyDefault).toBe('generated');
    expect(one.privacyHashKey).toMatch(/^[0-9a-f]{64}$/);
    expect(two.privacyHashKey).not.toBe(one.privacyHashKey);
    expect(parse({ REDIS_URL: 'redis://r' })).toMatchObject({ privacyHashKeyDefault: 'development' });
    expect(parse({ PRIVACY_HASH_KEY: 'mine' })).toMatchObject({
      privacyHashKey: 'mine',
      privacyHashKeyDefault: null,
    });
  });

  it('keeps reports 180 days by default, and takes fractions of a day', () => {
    expect(parse({}).reportRetentionSeconds).toBe(180 * 24 * 3600);
    expect(parse({ FEEDBACK_REPORT_RETENTION_DAYS: '0.0001' }).reportRetentionSeconds).toBe(9);
    expect(() => parse({ FEEDBACK_REPORT_RETENTION_DAYS: '0' })).toThrow();
  });
});
