import { z } from 'zod';
import { commonResultFields } from './common';
import { mailResultSchema } from './mail';
import { textResultSchema } from './text';

export const hybridModeSchema = z.enum(['parallel', 'step_by_step']);
export type HybridMode = z.infer<typeof hybridModeSchema>;

export const hybridResultSchema = z.object({
  id: commonResultFields.id,
  spam: commonResultFields.spam,
  verdict: commonResultFields.verdict,
  score: commonResultFields.score,
  mode: hybridModeSchema,
  email: mailResultSchema,
  text: textResultSchema.nullable(),
  skipped: z.array(z.literal('text')).describe('["text"] when step-by-step stopped after a spam e-mail.'),
  request_id: commonResultFields.request_id,
  duration_ms: commonResultFields.duration_ms,
});
export type HybridResult = z.infer<typeof hybridResultSchema>;
