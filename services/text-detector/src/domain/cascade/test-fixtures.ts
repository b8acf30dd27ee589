import { fixtureVerdict, REASON_WEIGHTS } from '../rules';
import type { Stage } from './types';

/**
 * The test fixtures (../rules/fixtures.ts). The rules:
 * - a fixture text has the verdict it names (score 1 or 0), for every client, with its reason alone;
 * - only the operator's deny list comes before it.
 */
export const testFixtures: Stage = {
  name: 'test fixtures',
  reads: 'text',
  decide(check) {
    const fixture = fixtureVerdict(check.rules.lower);
    if (fixture === undefined) return undefined;
    return {
      score: fixture === 'spam' ? 1 : 0,
      engine: 'rules',
      reasons: [{ code: 'TEXT_TEST_FIXTURE', weight: REASON_WEIGHTS.TEXT_TEST_FIXTURE }],
    };
  },
};
