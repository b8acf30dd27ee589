import { fillPlaceholders, type Language, type Messages } from '../languages';
import email from './email.json';
import form from './form.json';
import text from './text.json';

/**
 * The reason codes, as data: one JSON file per detector (`email.json`, `text.json`) and one for the form
 * context that either detector gives (`form.json`, docs/design.md, Form context). Messages may hold `{name}`
 * placeholders filled from reason params; `satisfies` refuses a message that lacks a language.
 */
export const EMAIL_REASONS = email satisfies Record<string, Messages>;
export const TEXT_REASONS = text satisfies Record<string, Messages>;
export const FORM_REASONS = form satisfies Record<string, Messages>;

export type EmailReasonCode = keyof typeof EMAIL_REASONS;
export type TextReasonCode = keyof typeof TEXT_REASONS;
export type FormReasonCode = keyof typeof FORM_REASONS;
export type ReasonCode = EmailReasonCode | TextReasonCode | FormReasonCode;

export const REASON_CATALOGUE = { ...EMAIL_REASONS, ...TEXT_REASONS, ...FORM_REASONS };
export const REASON_CODES = Object.keys(REASON_CATALOGUE) as ReasonCode[];

export type ReasonParams = Record<string, string | number>;

/** The localized message of a reason, with `{name}` placeholders filled from params. */
export function reasonMessage(code: ReasonCode, language: Language, params: ReasonParams = {}): string {
  return fillPlaceholders(REASON_CATALOGUE[code][language], params);
}
