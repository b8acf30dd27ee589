import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestContext } from './context';
import { AppError, isAppError } from './errors';
import { buildProblem } from './problem';
import { sendProblem } from './respond';

function toAppError(error: unknown): AppError {
  if (isAppError(error)) return error;
  return new AppError('INTERNAL_ERROR', { cause: error });
}

/**
 * The single place where errors become HTTP problems; nothing internal leaves the service. Used by the
 * kit's Express error handler.
 */
export function answerError(
  error: unknown,
  req: IncomingMessage,
  res: ServerResponse,
  context: RequestContext,
): void {
  // Refused before its body arrived (401, 413, 415...): close the connection after the answer instead of
  // keeping it alive, which would wait for the rest of the body, however slowly it comes.
  if (!req.complete) res.setHeader('Connection', 'close');
  const appError = toAppError(error);
  const problem = buildProblem(appError.code, context.language, context.requestId, appError.errors);
  if (problem.status >= 500)
    context.log.error(
      { err: appError.cause ?? appError, code: appError.code, internal: appError.internal },
      'request failed',
    );
  else if (appError.internal || appError.cause)
    context.log.warn(
      { code: appError.code, internal: appError.internal ?? String(appError.cause) },
      'request refused',
    );
  sendProblem(res, problem, { ...appError.headers });
}
