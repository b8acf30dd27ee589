import { REVIEW_MAX_KEEP_CONTENT_DAYS } from '@spam-check/contracts';
import { ConfigError, env, secretProblems } from '@spam-check/service-kit';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';

/** What the review list (`GET /api/v1/checks`) reads from the environment (README, "Configuration"). */
export const reviewConfigShape = {
  REVIEW_CONTENT_KEY: z.string().optional(),
  REVIEW_KEEP_CONTENT_DAYS_DEFAULT: z.coerce
    .number()
    .int()
    .min(0)
    .max(REVIEW_MAX_KEEP_CONTENT_DAYS)
    .default(0),
  REVIEW_MAX_CHECKS_PER_CLIENT: env.positiveInt(100_000),
};

const MIN_KEY_LENGTH = 32;

/** Outside production with Redis and without REVIEW_CONTENT_KEY: published here, so production refuses it. */
const DEVELOPMENT_CONTENT_KEY = 'development-review-content-key-not-for-production';

/**
 * The rules of REVIEW_CONTENT_KEY: in production it is required, at least MIN_KEY_LENGTH characters and not
 * published in this repository. Elsewhere a missing key is generated for this process without Redis (nothing
 * outlives it anyway), and is DEVELOPMENT_CONTENT_KEY with Redis, so that kept content survives a restart.
 */
export function reviewConfigOf(config: {
  NODE_ENV: string;
  REDIS_URL?: string | undefined;
  REVIEW_CONTENT_KEY?: string | undefined;
  REVIEW_KEEP_CONTENT_DAYS_DEFAULT: number;
  REVIEW_MAX_CHECKS_PER_CLIENT: number;
}) {
  const key = config.REVIEW_CONTENT_KEY === '' ? undefined : config.REVIEW_CONTENT_KEY;
  if (config.NODE_ENV === 'production') {
    const problems =
      key === undefined
        ? ['REVIEW_CONTENT_KEY: required in production (the key of the content kept for review)']
        : [
            ...(key === DEVELOPMENT_CONTENT_KEY
              ? [
                  'REVIEW_CONTENT_KEY: is published in this repository (an example or demo value); choose your own',
                ]
              : secretProblems(config.NODE_ENV, { REVIEW_CONTENT_KEY: key })),
          ];
    if (problems.length === 0 && key !== undefined && key.length < MIN_KEY_LENGTH)
      problems.push(
        `REVIEW_CONTENT_KEY: shorter than ${MIN_KEY_LENGTH} characters; use a random one (openssl rand -hex 32)`,
      );
    if (problems.length > 0) throw new ConfigError(problems);
  }
  const keyDefault: 'development' | 'generated' | null =
    key !== undefined ? null : config.REDIS_URL ? 'development' : 'generated';
  return {
    contentKey: key ?? (config.REDIS_URL ? DEVELOPMENT_CONTENT_KEY : randomBytes(32).toString('hex')),
    contentKeyDefault: keyDefault,
    keepContentDaysDefault: config.REVIEW_KEEP_CONTENT_DAYS_DEFAULT,
    maxPerClient: config.REVIEW_MAX_CHECKS_PER_CLIENT,
  };
}
export type ReviewConfig = ReturnType<typeof reviewConfigOf>;
