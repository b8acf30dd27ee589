import { textResultSchema } from '@spam-check/contracts';
import { createTextChecker, type CheckText } from '../src/domain/check-text';
import { readModelFile } from '../src/data-access/model-file';
import { LIMIT_INPUTS } from '../scripts/limit-inputs';

/**
 * The inputs at the limits of `scripts/limit-inputs.ts`. The CPU bound is generous on purpose: it catches
 * catastrophic backtracking (seconds), not slowness; the real figures come from the bench.
 */
describe('inputs at the limits', () => {
  let checkText: CheckText;
  beforeAll(() => {
    checkText = createTextChecker({
      model: readModelFile(),
      askLlm: undefined,
      config: {
        spamThreshold: 0.8,
        suspiciousThreshold: 0.5,
        llmMode: 'never',
        llmBand: [0.3, 0.8],
        denyTerms: ['x-deny'],
      },
    });
  });

  it.each(LIMIT_INPUTS)(
    'when the input is %s, it answers a valid result within a bounded CPU time',
    async (_name, input) => {
      const before = process.cpuUsage();
      const result = await checkText({ ...input, language: 'en', requestId: 'limits' });
      const used = process.cpuUsage(before);
      textResultSchema.parse({ ...result, duration_ms: 0 });
      expect(result.signals.length).toBeGreaterThan(0);
      expect((used.user + used.system) / 1000).toBeLessThan(1000);
    },
  );
});
