import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { ConfigError, secretProblems } from './config';

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

export interface PrivacyConfig {
  privacyHashKey: string;
  /** true when PRIVACY_HASH_KEY was not set and this process made its own (embedded mode). */
  privacyHashKeyGenerated: boolean;
  reportRetentionSeconds: number;
}

/**
 * The rules: in production the key is required, at least MIN_KEY_LENGTH characters and not one published in
 * this repository; elsewhere a missing key is generated for this process (its hashes mean nothing to another
 * process or after a restart, which the caller warns about).
 */
export function privacyOf(config: {
  NODE_ENV: string;
  PRIVACY_HASH_KEY?: string | undefined;
  FEEDBACK_REPORT_RETENTION_DAYS: number;
}): PrivacyConfig {
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
  const generated = key === undefined || key === '';
  return {
    privacyHashKey: generated ? randomBytes(32).toString('hex') : key,
    privacyHashKeyGenerated: generated,
    reportRetentionSeconds: Math.max(1, Math.round(config.FEEDBACK_REPORT_RETENTION_DAYS * 24 * 3600)),
  };
}
