import type { Submitted } from './review-item';

const FIELDS = ['email', 'title', 'body', 'sub_title'] as const;

/**
 * The submitted fields of a mail or text check's body, which the gateway forwards as bytes unparsed: read
 * only once the detector has accepted the body; a field that is not a string is left out.
 */
export function submittedOf(body: Buffer): Submitted {
  const submitted: Submitted = {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8').replace(/^\uFEFF/, ''));
  } catch {
    return submitted;
  }
  if (typeof parsed !== 'object' || parsed === null) return submitted;
  for (const field of FIELDS) {
    const value = (parsed as Record<string, unknown>)[field];
    if (typeof value === 'string') submitted[field] = value;
  }
  return submitted;
}
