import type { ServerResponse } from 'node:http';
import { PROBLEM_CONTENT_TYPE, type Problem } from '@spam-check/contracts';

const JSON_TYPE = 'application/json; charset=utf-8';
const PROBLEM_TYPE = `${PROBLEM_CONTENT_TYPE}; charset=utf-8`;

/**
 * Ends a response with a JSON body (a value, or bytes that already are JSON), as Express's `res.json` would:
 * `application/json; charset=utf-8` (or `contentType`) and a `Content-Length`. Headers set before (request id,
 * rate limit) stay. The headers are set one by one rather than merged into a new object with a spread: on
 * Node 20 an object built as `{ ...a, b }` gets a hidden class of its own (service-kit README, "Hidden
 * classes"), and this runs for every answer of every service.
 */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  contentType = JSON_TYPE,
): void {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
  for (const name in headers) res.setHeader(name, headers[name]!);
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Length', bytes.length);
  res.writeHead(status);
  res.end(bytes);
}

/**
 * Ends a response with an RFC 9457 problem; a 5xx without its own `Retry-After` gets 5 s (a server-side
 * failure is worth retrying, and a client must not have to guess when), a 429 without it 1 s (a limit whose
 * source gave no usable `Retry-After`, such as a detector's HTTP date, which the gateway does not pass on).
 */
export function sendProblem(
  res: ServerResponse,
  problem: Problem,
  headers: Record<string, string> = {},
): void {
  if (!headers['Retry-After'] && problem.status >= 500) res.setHeader('Retry-After', '5');
  else if (!headers['Retry-After'] && problem.status === 429) res.setHeader('Retry-After', '1');
  sendJson(res, problem.status, problem, headers, PROBLEM_TYPE);
}
