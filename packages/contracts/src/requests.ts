import { z } from 'zod';

/**
 * Field and body limits of the check requests (docs/design.md, Check requests); each is configurable per
 * deployment.
 */
export interface CheckLimits {
  bodyBytes: number;
  email: number;
  title: number;
  subTitle: number;
  body: number;
}

export const DEFAULT_CHECK_LIMITS: CheckLimits = {
  bodyBytes: 256 * 1024,
  email: 1024,
  title: 1000,
  subTitle: 1000,
  body: 100_000,
};

/** Limits of the form context (docs/design.md, Form context); fixed, like the batch sizes. */
export const FORM_CONTEXT_LIMITS = {
  honeypot: 1000,
  secondsToSubmit: 10_000_000,
  userAgent: 512,
  authorName: 200,
  authorUrl: 2000,
} as const;

/** The kinds of form a submission can come from; Akismet's `comment_type` maps onto them. */
export const FORM_TYPES = [
  'comment',
  'forum_post',
  'reply',
  'contact',
  'signup',
  'review',
  'message',
] as const;
export type FormType = (typeof FORM_TYPES)[number];

/**
 * What a site knows about the form a submission came from (docs/design.md, Form context). Judged by the
 * detectors, never stored.
 */
export const formContextSchema = z
  .object({
    honeypot: z
      .string()
      .max(FORM_CONTEXT_LIMITS.honeypot)
      .optional()
      .describe('The value of a hidden field people never see: anything in it means a bot filled the form.'),
    seconds_to_submit: z
      .number()
      .min(0)
      .max(FORM_CONTEXT_LIMITS.secondsToSubmit)
      .optional()
      .describe('Seconds between rendering the form and its submission (people need a few).'),
    user_agent: z
      .string()
      .max(FORM_CONTEXT_LIMITS.userAgent)
      .optional()
      .describe("The submitting browser's User-Agent header."),
    form_type: z
      .enum(FORM_TYPES)
      .optional()
      .describe(
        'What kind of form this was: a text is judged as what it claims to be (a comment, a contact message, …).',
      ),
    author_name: z
      .string()
      .max(FORM_CONTEXT_LIMITS.authorName)
      .optional()
      .describe('The name the author gave (a name made of keywords is a sign of spam).'),
    author_url: z
      .string()
      .max(FORM_CONTEXT_LIMITS.authorUrl)
      .optional()
      .describe("The website the author gave, as entered (comment forms' URL field)."),
  })
  .strict()
  .describe(
    'Optional signals of the form the content was submitted with; never stored. An unknown field is refused, so a misspelt signal is not dropped silently.',
  );
export type FormContext = z.infer<typeof formContextSchema>;

/** Request schemas for the given limits; the defaults are also exported ready-made below. */
export function createRequestSchemas(limits: CheckLimits = DEFAULT_CHECK_LIMITS) {
  const email = z.string().max(limits.email).describe('The e-mail address to check, as entered by the user.');
  const text = {
    title: z.string().max(limits.title).describe('Title or subject of the posted content.'),
    body: z.string().max(limits.body).describe('The posted text; HTML is turned into text before checking.'),
    sub_title: z.string().max(limits.subTitle).optional().describe('Optional subtitle.'),
  };
  const context = formContextSchema.optional();
  const mail = z.object({ email, context });
  const textCheck = z.object({ ...text, context });
  const hybrid = z.object({ ...text, email, context });
  return { mail, text: textCheck, hybrid };
}

export const requestSchemas = createRequestSchemas();
export type MailCheckRequest = z.infer<typeof requestSchemas.mail>;
export type TextCheckRequest = z.infer<typeof requestSchemas.text>;
export type HybridCheckRequest = z.infer<typeof requestSchemas.hybrid>;

/**
 * `X-Internal-Step-By-Step` (docs/design.md, Check requests): case-insensitive and trimmed; anything else is
 * a 400.
 */
export const STEP_BY_STEP_HEADER = 'x-internal-step-by-step';
const TRUE_VALUES = ['true', '1', 'yes', 'on'];
const FALSE_VALUES = ['false', '0', 'no', 'off', ''];

export function parseStepByStepHeader(value: string | undefined): boolean | 'invalid' {
  if (value === undefined) return false;
  const normalized = value.trim().toLowerCase();
  if (TRUE_VALUES.includes(normalized)) return true;
  if (FALSE_VALUES.includes(normalized)) return false;
  return 'invalid';
}
