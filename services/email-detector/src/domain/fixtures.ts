/**
 * Test fixtures with a fixed verdict, for client integration tests (like Akismet's guaranteed-spam values).
 * They live under `spam-check.test` (`.test` is reserved by RFC 2606, so no real mailbox can be hit); the
 * local part picks the verdict, case-insensitively, with any `+tag`:
 *   spam@spam-check.test → spam (score 1), suspicious@spam-check.test → suspicious (0.6),
 *   ham@spam-check.test → ham (score 0).
 * DNS is not queried for them. Operator lists still come first.
 */
export const FIXTURE_DOMAIN = 'spam-check.test';

export const FIXTURE_WEIGHTS: Readonly<Record<string, number>> = { spam: 1, suspicious: 0.6, ham: -1 };

/** The fixed weight of a fixture address, or null when the address is no fixture. */
export function fixtureWeight(localBase: string, asciiDomain: string): number | null {
  if (asciiDomain !== FIXTURE_DOMAIN) return null;
  return FIXTURE_WEIGHTS[localBase] ?? null;
}
