import { z } from 'zod';
import { commonResultFields } from './common';

export const checkStatusSchema = z.enum(['pass', 'fail', 'unknown', 'skipped']);
export type CheckStatus = z.infer<typeof checkStatusSchema>;

const check = z.object({ status: checkStatusSchema, detail: z.string().optional() });

export const mailResultSchema = z.object({
  ...commonResultFields,
  email: z.object({
    input: z.string(),
    normalized: z
      .string()
      .nullable()
      .describe('Lower-cased domain, trimmed; null when the syntax is invalid.'),
    domain: z.string().nullable(),
    ascii_domain: z.string().nullable().describe('The domain in punycode (IDNA).'),
  }),
  valid: z.boolean().describe('Syntax valid and domain usable for mail.'),
  suggestion: z.string().nullable().describe('Did-you-mean address, or null.'),
  checks: z.object({
    syntax: check,
    disposable: check,
    role_account: check,
    free_provider: check,
    dns: check,
  }),
});
export type MailResult = z.infer<typeof mailResultSchema>;
