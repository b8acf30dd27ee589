import type { ServerResponse } from 'node:http';
import { PROBLEM_CONTENT_TYPE, type Problem } from '@spam-check/contracts';

/**
 * Ends a response with a JSON body (a value, or bytes that already are JSON), as Express's `res.json` would:
 * `application/json; charset=utf-8` and a `Content-Length`. Headers set before (request id, rate limit) stay.
 */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
  res.writeHead(status, {
    ...headers,
    'Content-Type': headers['Content-Type'] ?? 'application/json; charset=utf-8',
    'Content-Length': bytes.length,
  });
  res.end(bytes);
}

/** Ends a response with an RFC 9457 problem; a 503 without its own `Retry-After` gets 5 s. */
export function sendProblem(
  res: ServerResponse,
  problem: Problem,
  headers: Record<string, string> = {},
): void {
  const retry: Record<string, string> =
    problem.status === 503 && !headers['Retry-After'] ? { 'Retry-After': '5' } : {};
  sendJson(res, problem.status, problem, {
    ...headers,
    ...retry,
    'Content-Type': `${PROBLEM_CONTENT_TYPE}; charset=utf-8`,
  });
}
