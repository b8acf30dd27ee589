import { z } from 'zod';
import { clientIdSchema } from './admin';
import { DEFAULT_CHECK_LIMITS } from './requests';

/**
 * `POST /api/v1/admin/erasure` (docs/design.md, Privacy and erasure), and the detectors' internal `POST
 * /v1/erasure`: an address or a client. Which form a body has is decided by its fields: `email` first, then
 * `client_id`.
 */
const byEmail = z.object({
  email: z
    .string()
    .min(1)
    .max(DEFAULT_CHECK_LIMITS.email)
    .describe('Erase what every client’s reports and checks keep about this address (its mailbox).'),
});
const byClient = z.object({
  client_id: clientIdSchema.describe('Erase everything kept about this client’s traffic and reports.'),
});
export const erasureSchemas = {
  byEmail,
  byClient,
  request: z.union([byEmail, byClient]).describe('`{email}` or `{client_id}`.'),
  formOf: (body: unknown): typeof byEmail | typeof byClient =>
    typeof body === 'object' && body !== null && 'client_id' in body && !('email' in body)
      ? byClient
      : byEmail,
};
export type ErasureRequest = z.infer<typeof erasureSchemas.request>;

const erasedCounts = z
  .record(z.string(), z.number().int().nonnegative())
  .describe('How many entries were deleted, by store (a store that held nothing counts 0).');

/** What a detector answers to `POST /v1/erasure` (internal). */
export const detectorErasureAnswerSchema = z.object({ erased: erasedCounts });

/**
 * What the text detector answers to `GET /v1/llm` (internal): the host its LLM stage sends texts to, or null
 * when the stage is off (docs/design.md, Privacy and erasure; shown in the console).
 */
export const detectorLlmEndpointSchema = z.object({ endpoint_host: z.string().nullable() });

export const erasureResultSchema = z.object({ erased: erasedCounts, request_id: z.string() });
export type ErasureResult = z.infer<typeof erasureResultSchema>;
