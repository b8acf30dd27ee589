/**
 * Documented test fixtures for client integration tests: a title, subtitle or body containing one of these
 * markers always gets the fixed verdict (spam wins when both are present).
 */
const FIXTURE_MARKERS = { spam: 'spam-check-test-spam', ham: 'spam-check-test-ham' } as const;

export function fixtureVerdict(lower: string): 'spam' | 'ham' | undefined {
  if (lower.includes(FIXTURE_MARKERS.spam)) return 'spam';
  if (lower.includes(FIXTURE_MARKERS.ham)) return 'ham';
  return undefined;
}
