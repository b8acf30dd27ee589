import { z } from 'zod';

/** Field and body limits of the check requests (DESIGN.md §2.3); each is configurable per deployment. */
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

/** Request schemas for the given limits; the defaults are also exported ready-made below. */
export function createRequestSchemas(limits: CheckLimits = DEFAULT_CHECK_LIMITS) {
  const email = z.string().max(limits.email).describe('The e-mail address to check, as entered by the user.');
  const text = {
    title: z.string().max(limits.title).describe('Title or subject of the posted content.'),
    body: z.string().max(limits.body).describe('The posted text; HTML is turned into text before checking.'),
    sub_title: z.string().max(limits.subTitle).optional().describe('Optional subtitle.'),
  };
  const mail = z.object({ email });
  const textCheck = z.object(text);
  const hybrid = z.object({ ...text, email });
  return { mail, text: textCheck, hybrid };
}

export const requestSchemas = createRequestSchemas();
export type MailCheckRequest = z.infer<typeof requestSchemas.mail>;
export type TextCheckRequest = z.infer<typeof requestSchemas.text>;
export type HybridCheckRequest = z.infer<typeof requestSchemas.hybrid>;

/** `X-Internal-Step-By-Step` (DESIGN.md §2.3): case-insensitive and trimmed; anything else is a 400. */
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
