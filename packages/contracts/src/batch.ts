import { z } from 'zod';
import { problemSchema } from './problem';
import { createRequestSchemas, DEFAULT_CHECK_LIMITS, type CheckLimits } from './requests';
import { mailResultSchema, textResultSchema, type Verdict } from './results';

/**
 * Batch limits (docs/design.md, Batch checks): items per request are fixed, the body limit is
 * `MAX_BATCH_BODY_BYTES`.
 */
export const BATCH_LIMITS = {
  mailItems: 1000,
  textItems: 100,
  bodyBytes: 8 * 1024 * 1024,
} as const;

/**
 * Batch request schemas. `envelope` is what decides whether the request as a whole is acceptable (the list
 * is there, with 1 to the maximum number of items: else 400); `item` judges each item on its own, so an
 * invalid item becomes a per-item problem while the others are checked; `request` is both together, the
 * shape clients send (types and the OpenAPI document).
 */
export function createBatchSchemas(limits: CheckLimits = DEFAULT_CHECK_LIMITS) {
  const single = createRequestSchemas(limits);
  const list = <T extends z.ZodType>(item: T, max: number) => z.array(item).min(1).max(max);
  const mailItem = z.union([single.mail.shape.email, single.mail]);
  return {
    mail: {
      envelope: z.object({ emails: list(z.unknown(), BATCH_LIMITS.mailItems) }),
      item: mailItem,
      request: z.object({
        emails: list(mailItem, BATCH_LIMITS.mailItems).describe(
          `1 to ${BATCH_LIMITS.mailItems} addresses, each checked as by the mail check: an address, or \`{email, context}\` with the form context of its submission.`,
        ),
      }),
    },
    text: {
      envelope: z.object({ items: list(z.unknown(), BATCH_LIMITS.textItems) }),
      item: single.text,
      request: z.object({
        items: list(single.text, BATCH_LIMITS.textItems).describe(
          `1 to ${BATCH_LIMITS.textItems} texts, each checked as by the text check.`,
        ),
      }),
    },
  };
}

export const batchSchemas = createBatchSchemas();
export type MailBatchRequest = z.infer<typeof batchSchemas.mail.request>;
export type TextBatchRequest = z.infer<typeof batchSchemas.text.request>;

/** An item that was not checked: invalid (`VALIDATION_FAILED`) or over the rate limit (`RATE_LIMITED`). */
export const batchItemErrorSchema = z.object({
  error: problemSchema.describe('Why this item was not checked; the other items were.'),
});
export type BatchItemError = z.infer<typeof batchItemErrorSchema>;

export const batchSummarySchema = z
  .object({ ham: z.number().int(), suspicious: z.number().int(), spam: z.number().int() })
  .describe('Verdicts of the checked items (items with an error are not counted).');
export type BatchSummary = z.infer<typeof batchSummarySchema>;

const batchResult = <T extends z.ZodType>(item: T) =>
  z.object({
    results: z
      .array(z.union([item, batchItemErrorSchema]))
      .describe('One entry per item, in request order: its result or `{error: <problem>}`.'),
    summary: batchSummarySchema,
    request_id: z.string(),
    duration_ms: z.number().nonnegative(),
  });

export const mailBatchResultSchema = batchResult(mailResultSchema);
export const textBatchResultSchema = batchResult(textResultSchema);
export type MailBatchResult = z.infer<typeof mailBatchResultSchema>;
export type TextBatchResult = z.infer<typeof textBatchResultSchema>;

/** Counts the verdicts of the results that have one. */
export function summarize(results: readonly ({ verdict: Verdict } | BatchItemError)[]): BatchSummary {
  const summary: BatchSummary = { ham: 0, suspicious: 0, spam: 0 };
  for (const result of results) if ('verdict' in result) summary[result.verdict] += 1;
  return summary;
}
