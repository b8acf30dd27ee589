import { createHmac, timingSafeEqual } from 'node:crypto';

export const DEFAULT_HONEYPOT_FIELD = 'website_url';
export const DEFAULT_TIMESTAMP_FIELD = 'spam_check_ts';

export interface FieldNames {
  /** The hidden field people never see (default `website_url`: a name bots like to fill). */
  honeypotField?: string;
  /** The hidden field with the signed render time (default `spam_check_ts`). */
  timestampField?: string;
}

const sign = (secret: string, millis: string) =>
  createHmac('sha256', secret).update(millis).digest('base64url');

/** `<ms since the epoch>.<HMAC-SHA-256 of it under the secret>`: the time the form was rendered. */
export function signRenderTime(secret: string, now = Date.now()): string {
  const millis = String(Math.floor(now));
  return `${millis}.${sign(secret, millis)}`;
}

/**
 * Seconds since the form was rendered, from a signed render time; undefined when the value is missing, forged
 * or from the future (a bot that posts without rendering the form has no valid one).
 */
export function secondsSinceRender(value: unknown, secret: string, now = Date.now()): number | undefined {
  if (typeof value !== 'string') return undefined;
  const [millis, signature] = value.split('.');
  if (!millis || !signature || !/^\d{1,15}$/.test(millis)) return undefined;
  const expected = Buffer.from(sign(secret, millis));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  const seconds = (now - Number(millis)) / 1000;
  return seconds < 0 ? undefined : seconds;
}

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The two hidden inputs to put inside a `<form>`: the honeypot (off screen, out of the tab order, not
 * autofilled, hidden from screen readers) and the signed render time. Render them anew for every page view.
 */
export function formFields(options: FieldNames & { secret: string; now?: number }): string {
  const honeypot = escapeAttribute(options.honeypotField ?? DEFAULT_HONEYPOT_FIELD);
  const timestamp = escapeAttribute(options.timestampField ?? DEFAULT_TIMESTAMP_FIELD);
  return [
    `<div aria-hidden="true" style="position:absolute;left:-10000px;top:auto;width:1px;height:1px;overflow:hidden">`,
    `<label>Leave this empty <input type="text" name="${honeypot}" value="" tabindex="-1" autocomplete="off"></label>`,
    `</div>`,
    `<input type="hidden" name="${timestamp}" value="${escapeAttribute(signRenderTime(options.secret, options.now))}">`,
  ].join('');
}
