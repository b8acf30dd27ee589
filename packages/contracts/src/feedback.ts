import { z } from 'zod';
import { DEFAULT_CHECK_LIMITS, type CheckLimits } from './requests';

export const feedbackLabelSchema = z.enum(['spam', 'ham']).describe('The verdict the client wants.');
export type FeedbackLabel = z.infer<typeof feedbackLabelSchema>;

/**
 * `POST /api/v1/spam/feedback` (docs/design.md, Learning from reports): one of a check id, an address or a
 * text, with a label. Which form a body has is decided by its fields in this order: `check_id`, then `email`,
 * then `title`/`body` (`formOf`); each form is strict, so a body that mixes forms or carries an unknown field
 * is refused (400 VALIDATION_FAILED) rather than half read.
 */
export function createFeedbackSchemas(limits: CheckLimits = DEFAULT_CHECK_LIMITS) {
  const label = feedbackLabelSchema;
  const byCheck = z.strictObject({
    check_id: z.string().min(1).max(100).describe('The id of an earlier mail, text or hybrid result.'),
    label,
  });
  const byEmail = z.strictObject({ email: z.string().max(limits.email), label });
  const byText = z.strictObject({
    title: z.string().max(limits.title),
    body: z.string().max(limits.body),
    sub_title: z.string().max(limits.subTitle).optional(),
    label,
  });
  const request = z
    .union([byCheck, byEmail, byText])
    .describe('`{check_id, label}`, `{email, label}` or `{title, body, sub_title?, label}`.');
  /** The schema a body is validated with, so its errors name the fields of the form it was meant as. */
  const formOf = (body: unknown): typeof byCheck | typeof byEmail | typeof byText => {
    if (typeof body !== 'object' || body === null) return byText;
    if ('check_id' in body) return byCheck;
    if ('email' in body) return byEmail;
    return byText;
  };
  return { byCheck, byEmail, byText, request, formOf };
}

export const feedbackSchemas = createFeedbackSchemas();
export type FeedbackRequest = z.infer<typeof feedbackSchemas.request>;
export type FeedbackByCheck = z.infer<typeof feedbackSchemas.byCheck>;
export type FeedbackByEmail = z.infer<typeof feedbackSchemas.byEmail>;
export type FeedbackByText = z.infer<typeof feedbackSchemas.byText>;

export const feedbackPartSchema = z.enum(['email', 'text']);
export type FeedbackPart = z.infer<typeof feedbackPartSchema>;

export const feedbackResultSchema = z.object({
  id: z.uuid().describe('Id of this report.'),
  check_id: z.string().nullable().describe('The reported check, or null for a report by content.'),
  label: feedbackLabelSchema,
  applied_to: z.array(feedbackPartSchema).describe('Which parts the report was applied to.'),
  request_id: z.string(),
});
export type FeedbackResult = z.infer<typeof feedbackResultSchema>;

/** What a detector answers to `POST /v1/feedback` (internal). */
export const detectorFeedbackAnswerSchema = z.object({ applied: z.literal(true) });
