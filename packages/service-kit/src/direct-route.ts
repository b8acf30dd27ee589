import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestContext } from './context';
import { answerError } from './error-answer';
import { AppError } from './errors';
import { beginRequest, type RequestScope } from './request';

/**
 * A hot POST endpoint served by a plain `node:http` handler instead of Express, for the checks that every
 * request of the public API passes (the detectors' `/v1/check`, the gateway's mail and text checks). What it
 * shares with the Express routes is the kit's own code, not Express's: `beginRequest` (request id, language,
 * access log, metrics), `answerError` (problems), `readJsonBody` / `readJsonBytes` and `sendJson`.
 */
export interface DirectRoute {
  /**
   * Matched exactly against the request's path, the query string ignored. Another case or a trailing slash is
   * not this route: it reaches the Express app, which answers 404.
   */
  path: string;
  /** Answers a POST on `path` (other methods get 405 with `Allow: POST`); a rejection becomes the problem. */
  handle: (req: IncomingMessage, res: ServerResponse, context: RequestContext) => Promise<void>;
}

/** The path of a request URL, without its query string. */
export function pathOf(url = '/'): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

export function answerDirectly(
  route: DirectRoute,
  req: IncomingMessage,
  res: ServerResponse,
  scope: RequestScope,
): void {
  const context = beginRequest(req, res, scope, () => ({ route: route.path, path: route.path }));
  const fail = (error: unknown) => {
    if (!res.headersSent) return answerError(error, req, res, context);
    // The answer has begun: nothing sound can follow it on this connection (what Express does too).
    context.log.error({ err: error }, 'request failed after its answer began');
    req.socket.destroy();
  };
  if (req.method !== 'POST') {
    res.setHeader('Allow', 'POST');
    return fail(new AppError('METHOD_NOT_ALLOWED'));
  }
  route.handle(req, res, context).catch(fail);
}
