import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkSubmission, type SpamCheckOptions, type SubmissionOutcome } from './check-submission';

/** What the middleware needs of Express's request and response (any framework with the same shape will do). */
type FormRequest = IncomingMessage & { body?: unknown };
type FormResponse = ServerResponse & { locals?: Record<string, unknown> };

export interface MiddlewareOptions extends SpamCheckOptions {
  /**
   * Answers a refused submission. Default: 422 "looks like spam" (or "could not be checked" when the API
   * refused the call), or 503 with `Retry-After` when the API could not answer and `onUnavailable` is
   * `reject`, as plain text.
   */
  onRefused?: (req: FormRequest, res: FormResponse, outcome: SubmissionOutcome) => void;
}

function refuse(_req: FormRequest, res: FormResponse, outcome: SubmissionOutcome): void {
  const unavailable = outcome.status === 'unavailable';
  res.statusCode = unavailable ? 503 : 422;
  if (unavailable) res.setHeader('Retry-After', '30');
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.end(
    unavailable
      ? 'The spam check is unavailable, so the submission was not accepted. Please try again later.'
      : outcome.status === 'rejected'
        ? 'The submission could not be checked and was not accepted.'
        : 'The submission looks like spam and was not accepted.',
  );
}

/**
 * Express middleware for a form's POST route, after a body parser (`express.urlencoded()` or
 * `express.json()`): checks the submission with `checkSubmission`, keeps the outcome in
 * `res.locals.spamCheck` (and `req.spamCheck`), and either calls `next()` or answers the refusal.
 */
export function spamCheck(options: MiddlewareOptions) {
  return (req: FormRequest, res: FormResponse, next: (error?: unknown) => void): void => {
    const body = req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {};
    checkSubmission({ fields: body, userAgent: req.headers['user-agent'] }, options).then((outcome) => {
      (req as { spamCheck?: SubmissionOutcome }).spamCheck = outcome;
      if (res.locals) res.locals.spamCheck = outcome;
      if (outcome.allowed) return next();
      (options.onRefused ?? refuse)(req, res, outcome);
    }, next);
  };
}
