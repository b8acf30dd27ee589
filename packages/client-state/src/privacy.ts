import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { ConfigError, redisTargetOf, secretProblems, type RedisConfig } from '@spam-check/service-kit';

/**
 * What the services that keep personal data read about it (DESIGN.md §7.5):
 * - PRIVACY_HASH_KEY, the key of every stored e-mail address hash (./keyed-hash.ts);
 * - FEEDBACK_REPORT_RETENTION_DAYS, how long a report and what was learnt from it are kept (fractions allowed,
 *   so a test can use seconds).
 */
export const privacyConfigShape = {
  PRIVACY_HASH_KEY: z.string().optional(),
  FEEDBACK_REPORT_RETENTION_DAYS: z.coerce.number().positive().default(180),
};

const MIN_KEY_LENGTH = 32;

/**
 * The key outside production when Redis is configured but PRIVACY_HASH_KEY is not: fixed, so that reports
 * survive a restart of a development stack; published here, so production refuses it.
 */
const DEVELOPMENT_PRIVACY_HASH_KEY = 'development-privacy-hash-key-not-for-production';

export interface PrivacyConfig {
  privacyHashKey: string;
  /** Which default stands in for a missing PRIVACY_HASH_KEY (each is a warning), or null when it is set. */
  privacyHashKeyDefault: 'generated' | 'development' | null;
  reportRetentionSeconds: number;
}

/**
 * The rules: in production the key is required, at least MIN_KEY_LENGTH characters and not one published in
 * this repository. Elsewhere a missing key is generated for this process in embedded mode (without Redis
 * nothing outlives the process anyway), and is DEVELOPMENT_PRIVACY_HASH_KEY with Redis.
 */
export function privacyOf(
  config: RedisConfig & {
    NODE_ENV: string;
    PRIVACY_HASH_KEY?: string | undefined;
    FEEDBACK_REPORT_RETENTION_DAYS: number;
  },
): PrivacyConfig {
  const key = config.PRIVACY_HASH_KEY;
  if (config.NODE_ENV === 'production') {
    const problems =
      key === undefined || key === ''
        ? ['PRIVACY_HASH_KEY: required in production (the key of the stored e-mail address hashes)']
        : secretProblems(config.NODE_ENV, { PRIVACY_HASH_KEY: key });
    if (problems.length === 0 && key !== undefined && key.length < MIN_KEY_LENGTH)
      problems.push(
        `PRIVACY_HASH_KEY: shorter than ${MIN_KEY_LENGTH} characters; use a random one (openssl rand -hex 32)`,
      );
    if (problems.length > 0) throw new ConfigError(problems);
  }
  const retentionSeconds = Math.max(1, Math.round(config.FEEDBACK_REPORT_RETENTION_DAYS * 24 * 3600));
  if (key !== undefined && key !== '')
    return { privacyHashKey: key, privacyHashKeyDefault: null, reportRetentionSeconds: retentionSeconds };
  return redisTargetOf(config)
    ? {
        privacyHashKey: DEVELOPMENT_PRIVACY_HASH_KEY,
        privacyHashKeyDefault: 'development',
        reportRetentionSeconds: retentionSeconds,
      }
    : {
        privacyHashKey: randomBytes(32).toString('hex'),
        privacyHashKeyDefault: 'generated',
        reportRetentionSeconds: retentionSeconds,
      };
}

/** The warning for a PRIVACY_HASH_KEY default, or null when the key is set. */
export function privacyKeyWarning(privacy: PrivacyConfig): string | null {
  switch (privacy.privacyHashKeyDefault) {
    case null:
      return null;
    case 'generated':
      return 'PRIVACY_HASH_KEY is not set: address hashes use a key generated for this process';
    case 'development':
      return 'PRIVACY_HASH_KEY is not set: address hashes use the published development key (refused in production)';
  }
}
