import type { Reason } from '@spam-check/client';

type Verdict = 'ham' | 'suspicious' | 'spam';

/** What the middleware reads of a check result; anything else in it is left alone. */
export interface CheckedAnswer {
  verdict: Verdict;
  score: number;
  id: string;
  reasons: Reason[];
}

const VERDICTS: readonly unknown[] = ['ham', 'suspicious', 'spam'];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isReasons = (value: unknown): value is Reason[] =>
  Array.isArray(value) && value.every((reason) => isObject(reason) && typeof reason.code === 'string');

/**
 * The fields the middleware acts on, or undefined when a 200 answer lacks them or has them of the wrong type
 * (a proxy's page, a broken deployment): such an answer is no verdict. Unknown reason codes are kept, so a
 * newer API does not break an older middleware.
 */
export function readAnswer(result: unknown): CheckedAnswer | undefined {
  if (!isObject(result)) return undefined;
  const { verdict, score, id } = result;
  if (!VERDICTS.includes(verdict) || typeof score !== 'number' || typeof id !== 'string') return undefined;
  // A hybrid result has its reasons in its parts, a mail or text result at the top.
  if (!('reasons' in result)) {
    const { email, text } = result;
    if (!isObject(email) || !isReasons(email.reasons)) return undefined;
    if (text !== null && text !== undefined && (!isObject(text) || !isReasons(text.reasons)))
      return undefined;
    const textReasons = isObject(text) && isReasons(text.reasons) ? text.reasons : [];
    return { verdict: verdict as Verdict, score, id, reasons: [...email.reasons, ...textReasons] };
  }
  if (!isReasons(result.reasons)) return undefined;
  return { verdict: verdict as Verdict, score, id, reasons: result.reasons };
}
