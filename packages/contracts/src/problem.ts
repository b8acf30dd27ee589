import { z } from 'zod';
import { ERROR_CODES } from './errors';

/**
 * RFC 9457 problem details with the `code`, `request_id` and `errors` extensions (docs/design.md, Errors and
 * problems).
 */
export const problemSchema = z.object({
  type: z.string().describe('URI reference identifying the problem type.'),
  title: z.string(),
  status: z.number().int().min(400).max(599),
  detail: z.string().describe('Localized, human-readable explanation.'),
  code: z.enum(ERROR_CODES as [string, ...string[]]).describe('Stable identifier from the error catalogue.'),
  request_id: z.string(),
  errors: z
    .array(z.object({ path: z.string(), message: z.string() }))
    .optional()
    .describe('Field-level validation errors.'),
});
export type Problem = z.infer<typeof problemSchema>;
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
