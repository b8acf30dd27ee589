import type { Verdict } from '@spam-check/contracts';

/**
 * Test fixtures with a fixed verdict, for client integration tests (like Akismet's guaranteed-spam values).
 * They live under `spam-check.test` (`.test` is reserved by RFC 2606, so no real mailbox can be hit); the
 * local part picks the verdict, case-insensitively, with any `+tag`:
 *   spam@spam-check.test → spam, suspicious@spam-check.test → suspicious, ham@spam-check.test → ham
 * (their weights, and so their scores, are in scoring.ts). DNS is not queried for them. Operator lists still
 * come first.
 */
export const FIXTURE_DOMAIN = 'spam-check.test';

const FIXTURE_VERDICTS: readonly Verdict[] = ['spam', 'suspicious', 'ham'];

/** The verdict a fixture address stands for, or null when the address is no fixture. */
export function fixtureVerdict(localBase: string, asciiDomain: string): Verdict | null {
  if (asciiDomain !== FIXTURE_DOMAIN) return null;
  return FIXTURE_VERDICTS.find((verdict) => verdict === localBase) ?? null;
}
