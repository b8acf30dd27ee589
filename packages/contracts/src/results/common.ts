import { z } from 'zod';
import { REASON_CODES } from '../reasons';

export const verdictSchema = z.enum(['ham', 'suspicious', 'spam']);
export type Verdict = z.infer<typeof verdictSchema>;

export const reasonSchema = z.object({
  code: z.enum(REASON_CODES as [string, ...string[]]).describe('Stable code from the reason catalogue.'),
  message: z.string().describe('Localized explanation.'),
  weight: z.number().min(-1).max(1).describe('Contribution to the score; negative values speak for ham.'),
});
export type Reason = z.infer<typeof reasonSchema>;

/** Fields common to every check result (docs/design.md, Checks and verdicts). */
export const commonResultFields = {
  id: z.uuid().describe('Id of this check.'),
  spam: z.boolean(),
  verdict: verdictSchema,
  score: z.number().min(0).max(1).describe('0..1, higher means more likely spam.'),
  reasons: z.array(reasonSchema),
  request_id: z.string(),
  duration_ms: z.number().nonnegative(),
};
