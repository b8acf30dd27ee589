import { fillPlaceholders, type Language } from '../languages';
import { EMAIL_REASONS, type EmailReasonCode } from './email';
import { FORM_REASONS, type FormReasonCode } from './form';
import { TEXT_REASONS, type TextReasonCode } from './text';

export { EMAIL_REASONS, FORM_REASONS, TEXT_REASONS };
export type { EmailReasonCode, FormReasonCode, TextReasonCode };
export type ReasonCode = EmailReasonCode | TextReasonCode | FormReasonCode;

export const REASON_CATALOGUE = { ...EMAIL_REASONS, ...TEXT_REASONS, ...FORM_REASONS };
export const REASON_CODES = Object.keys(REASON_CATALOGUE) as ReasonCode[];

export type ReasonParams = Record<string, string | number>;

/** The localized message of a reason, with `{name}` placeholders filled from params. */
export function reasonMessage(code: ReasonCode, language: Language, params: ReasonParams = {}): string {
  return fillPlaceholders(REASON_CATALOGUE[code][language], params);
}
