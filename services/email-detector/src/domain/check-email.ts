import { randomUUID } from 'node:crypto';
import { reasonMessage, type Language, type MailResult } from '@spam-check/contracts';

export interface CheckEmailInput {
  email: string;
  language: Language;
  requestId: string;
}

const SIMPLE_SYNTAX = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$/;

/** The e-mail verdict: one domain function behind both the HTTP and the RPC entry point. */
export async function checkEmail(input: CheckEmailInput): Promise<Omit<MailResult, 'duration_ms'>> {
  const valid = SIMPLE_SYNTAX.test(input.email);
  const at = input.email.lastIndexOf('@');
  const domain = valid ? input.email.slice(at + 1).toLowerCase() : null;
  return {
    id: randomUUID(),
    spam: !valid,
    verdict: valid ? 'ham' : 'spam',
    score: valid ? 0 : 1,
    reasons: valid
      ? []
      : [
          {
            code: 'EMAIL_INVALID_SYNTAX',
            message: reasonMessage('EMAIL_INVALID_SYNTAX', input.language),
            weight: 1,
          },
        ],
    request_id: input.requestId,
    email: {
      input: input.email,
      normalized: valid ? `${input.email.slice(0, at)}@${domain}` : null,
      domain,
      ascii_domain: domain,
    },
    valid,
    suggestion: null,
    checks: {
      syntax: { status: valid ? 'pass' : 'fail' },
      disposable: { status: 'skipped' },
      role_account: { status: 'skipped' },
      free_provider: { status: 'skipped' },
      dns: { status: 'skipped' },
    },
  };
}
