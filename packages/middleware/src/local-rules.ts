import {
  DEFAULT_CHECK_LIMITS,
  FORM_CONTEXT_LIMITS,
  reasonMessage,
  type CheckLimits,
  type FormReasonCode,
  type Language,
  type Reason,
} from '@spam-check/contracts';

/**
 * What the middleware knows without the API, so that no submission can turn a refusal into "unavailable" by
 * making the API refuse the call:
 * - a filled honeypot is spam;
 * - a form posted faster than `minSeconds` after it was rendered (or with no valid render time) is suspicious
 *   (the API says so too, with more: its verdict wins when there is one);
 * - a text field over the API's limit is cut to it (a bot pads a field; a person never reaches the limit), and
 *   the whole body is cut until it fits the API's request limit;
 * - an e-mail address over the API's limit is no one's address: spam;
 * - lone UTF-16 surrogates, which the API refuses, become U+FFFD.
 */

export type LocalVerdict = { verdict: 'spam' | 'suspicious'; reasons: Reason[] } | undefined;

export interface LocalInput {
  honeypot: string;
  seconds: number;
  email: string | undefined;
  minSeconds: number;
  language: Language;
}

const reason = (
  code: FormReasonCode | 'EMAIL_INVALID_SYNTAX',
  language: Language,
  weight: number,
  params = {},
) => ({ code, message: reasonMessage(code, language, params), weight }) as Reason;

export function localVerdict(input: LocalInput): LocalVerdict {
  if (input.honeypot !== '')
    return { verdict: 'spam', reasons: [reason('FORM_HONEYPOT_FILLED', input.language, 1)] };
  if (input.email !== undefined && input.email.length > DEFAULT_CHECK_LIMITS.email)
    return { verdict: 'spam', reasons: [reason('EMAIL_INVALID_SYNTAX', input.language, 1)] };
  if (input.seconds < input.minSeconds) {
    const seconds = Math.round(input.seconds * 10) / 10;
    return {
      verdict: 'suspicious',
      reasons: [reason('FORM_SUBMITTED_TOO_FAST', input.language, 0.5, { seconds })],
    };
  }
  return undefined;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A field as the API takes it: well-formed UTF-16, at most `max` characters, never half a surrogate pair. */
export function fitField(value: string, max: number): string {
  const cut = value.length > max ? value.slice(0, max) : value;
  return cut.replace(LONE_SURROGATE, '\uFFFD');
}

type TextFields = { title: string; body: string; sub_title?: string };

/**
 * Cuts the text fields of a request to the API's limits, then its body until the whole JSON request fits the
 * API's byte limit.
 */
export function fitText<T extends TextFields>(request: T, limits: CheckLimits = DEFAULT_CHECK_LIMITS): T {
  const fitted: T = {
    ...request,
    title: fitField(request.title, limits.title),
    body: fitField(request.body, limits.body),
    ...(request.sub_title === undefined ? {} : { sub_title: fitField(request.sub_title, limits.subTitle) }),
  };
  // Escapes and multi-byte characters make the JSON longer than the characters: cut by the measured excess.
  const budget = limits.bodyBytes;
  for (let bytes = jsonBytes(fitted); bytes > budget && fitted.body !== ''; bytes = jsonBytes(fitted)) {
    const keep = Math.floor(fitted.body.length * (budget / bytes)) - 1;
    fitted.body = fitField(fitted.body, Math.max(0, keep));
  }
  return fitted;
}

const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/** The form context within the API's limits. */
export function fitContext(honeypot: string, seconds: number, userAgent: string | null | undefined) {
  return {
    honeypot: fitField(honeypot, FORM_CONTEXT_LIMITS.honeypot),
    seconds_to_submit: Math.min(seconds, FORM_CONTEXT_LIMITS.secondsToSubmit),
    ...(userAgent ? { user_agent: fitField(userAgent, FORM_CONTEXT_LIMITS.userAgent) } : {}),
  };
}
