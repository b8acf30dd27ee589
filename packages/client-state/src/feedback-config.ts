import { z } from 'zod';
import { env } from '@spam-check/service-kit';

/**
 * Storage for feedback (docs/design.md, Learning from reports), shared by the gateway and both detectors: in
 * Redis when it is configured, else in the memory of the process (embedded mode). Two kinds of data, both
 * kept per client:
 * - what a check needs in order to learn from it later, by check id, for FEEDBACK_RETENTION_SECONDS
 *   (`CheckMemory`; 0 keeps nothing);
 * - the client's reports and what they taught (`ClientMap`): kept until the cap, then the oldest entry goes.
 */
export const feedbackConfigShape = {
  FEEDBACK_RETENTION_SECONDS: z.coerce
    .number()
    .int()
    .nonnegative()
    .default(7 * 24 * 3600),
  FEEDBACK_MAX_REPORTS: env.positiveInt(10_000),
};
