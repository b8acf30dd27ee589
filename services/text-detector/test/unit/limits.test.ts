import { textResultSchema } from '@spam-check/contracts';
import { createLogger, createMetrics } from '@spam-check/service-kit';
import { loadServiceConfig } from '../../src/config';
import { composeTextCheck } from '../../src/compose';
import type { CheckText } from '../../src/domain/check-text';
import { LIMIT_INPUTS } from '../../bench/limit-inputs';

/**
 * The inputs at the limits of `bench/limit-inputs.ts`. The CPU bound is generous on purpose: it catches
 * catastrophic backtracking (seconds), not slowness; the real figures come from the bench.
 */
describe('inputs at the limits', () => {
  let checkText: CheckText;
  beforeAll(async () => {
    const config = loadServiceConfig({
      LOG_LEVEL: 'silent',
      TEXT_LLM_MODE: 'never',
      TEXT_DENY_TERMS: 'x-deny',
    });
    const logger = createLogger({ service: 'text-detector-test', level: 'silent' });
    ({ checkText } = await composeTextCheck(config, logger, createMetrics('text-detector')));
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
