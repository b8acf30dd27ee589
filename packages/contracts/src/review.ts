import { z } from 'zod';
import { feedbackLabelSchema, feedbackResultSchema, feedbackSchemas } from './feedback';
import { problemSchema } from './problem';
import { REASON_CODES } from './reasons';
import { verdictSchema } from './results';

/** The kinds of check a client's review list holds; a batch item is listed as the kind of its batch. */
export const reviewKindSchema = z.enum(['mail', 'text', 'hybrid']);
export type ReviewKind = z.infer<typeof reviewKindSchema>;

/** The most items one page lists, and the most reports one feedback request carries. */
export const REVIEW_LIMITS = { pageItems: 100, defaultPageItems: 50, reports: 100 } as const;

/** The most days a client may keep the submitted fields of its checks for review (`review.keep_content_days`). */
export const REVIEW_MAX_KEEP_CONTENT_DAYS = 30;

export const reviewContentSchema = z
  .object({
    email: z.string().optional(),
    title: z.string().optional(),
    body: z.string().optional(),
    sub_title: z.string().optional(),
  })
  .describe(
    'The submitted fields, kept (encrypted) only when the client keeps content (`review.keep_content_days`).',
  );
export type ReviewContent = z.infer<typeof reviewContentSchema>;

export const reviewPreviewSchema = z
  .object({
    domain: z.string().optional().describe("The address's domain; only when the client keeps content."),
    title: z
      .string()
      .optional()
      .describe('The canonical text of the title (lower case, links and digits masked).'),
    body: z.string().optional().describe('The canonical text of the body, shortened.'),
  })
  .describe('What is kept anyway: the canonical text of a text check, and the domain of a kept address.');
export type ReviewPreview = z.infer<typeof reviewPreviewSchema>;

export const reviewReportSchema = z
  .object({ label: feedbackLabelSchema, at: z.iso.datetime({ offset: true }) })
  .describe("The client's last report on this check.");

/** An item of `GET /api/v1/checks`; also the `data` of a webhook delivery. */
export const reviewItemSchema = z.object({
  id: z.string().describe('The check id (the `id` of its result), for feedback.'),
  kind: reviewKindSchema,
  created_at: z.iso.datetime({ offset: true }),
  verdict: verdictSchema,
  score: z.number().min(0).max(1),
  reasons: z.array(z.enum(REASON_CODES as [string, ...string[]])).describe('The reason codes of the result.'),
  language: z.string().nullable().describe('The detected language of the text, or null.'),
  report: reviewReportSchema.nullable(),
  content: reviewContentSchema.nullable(),
  preview: reviewPreviewSchema.nullable(),
});
export type ReviewItem = z.infer<typeof reviewItemSchema>;

const oneOrMany = <T extends z.ZodType>(item: T) =>
  z.union([item, z.array(item)]).transform((value) => (Array.isArray(value) ? value : [value]));

/** The query of `GET /api/v1/checks`; a misspelt or repeated single-valued parameter is refused. */
export const checkListQuerySchema = z.strictObject({
  verdict: oneOrMany(verdictSchema).optional().describe('Repeatable: `verdict=spam&verdict=suspicious`.'),
  kind: reviewKindSchema.optional(),
  reason: z
    .enum(REASON_CODES as [string, ...string[]])
    .optional()
    .describe('A reason code.'),
  reported: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional()
    .describe('Only checks the client has reported (true) or not (false).'),
  since: z.iso.datetime({ offset: true }).optional().describe('RFC 3339; checks at or after it.'),
  until: z.iso.datetime({ offset: true }).optional().describe('RFC 3339; checks before it.'),
  limit: z.coerce.number().int().min(1).max(REVIEW_LIMITS.pageItems).default(REVIEW_LIMITS.defaultPageItems),
  cursor: z.string().min(1).max(1000).optional().describe('The `next_cursor` of the previous page.'),
});
export type CheckListQuery = z.output<typeof checkListQuerySchema>;

export const checkListSchema = z.object({
  items: z.array(reviewItemSchema).describe('Newest first.'),
  next_cursor: z
    .string()
    .nullable()
    .describe(
      'Pass as `cursor` for the next page; null at the end. A page may hold fewer items than `limit`.',
    ),
  request_id: z.string(),
});
export type CheckList = z.infer<typeof checkListSchema>;

/** `POST /api/v1/spam/feedback` with many reports by check id, each applied or refused on its own. */
export const feedbackReportsRequestSchema = z.strictObject({
  reports: z
    .array(z.unknown())
    .min(1)
    .max(REVIEW_LIMITS.reports)
    .describe(`1 to ${REVIEW_LIMITS.reports} reports \`{check_id, label}\`.`),
});

/** The same as clients send it (types and the OpenAPI document); each report is validated on its own. */
export const feedbackReportsSchema = z.object({
  reports: z.array(feedbackSchemas.byCheck).min(1).max(REVIEW_LIMITS.reports),
});
export type FeedbackReports = z.infer<typeof feedbackReportsSchema>;

export const feedbackReportsResultSchema = z.object({
  results: z
    .array(
      z.union([
        feedbackResultSchema.omit({ request_id: true }),
        z.object({ error: problemSchema.describe('Why this report was refused; the others were applied.') }),
      ]),
    )
    .describe('In request order: each report applied, or its problem.'),
  request_id: z.string(),
});
export type FeedbackReportsResult = z.infer<typeof feedbackReportsResultSchema>;

export const reviewSettingsSchema = z
  .strictObject({
    keep_content_days: z
      .number()
      .int()
      .min(0)
      .max(REVIEW_MAX_KEEP_CONTENT_DAYS)
      .optional()
      .describe(
        'Days the submitted fields of a check are kept, encrypted, for review (0: not kept); absent: the operator default.',
      ),
  })
  .describe('What the review list keeps of each check.');
