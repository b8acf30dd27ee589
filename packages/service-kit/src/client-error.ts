import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { PROBLEM_CONTENT_TYPE, type ErrorCode, type Language } from '@spam-check/contracts';
import type { Logger } from 'pino';
import { buildProblem } from './problem';
import { requestIdOf } from './request-id';

function codeOf(error: NodeJS.ErrnoException): ErrorCode {
  switch (error.code ?? '') {
    case 'HPE_HEADER_OVERFLOW':
      return 'HEADERS_TOO_LARGE';
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return 'REQUEST_TIMEOUT';
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return 'PAYLOAD_TOO_LARGE';
    default:
      return 'MALFORMED_REQUEST';
  }
}

/**
 * What a request Node's HTTP parser refused before any handler saw it becomes (the server's `clientError`):
 * - headers over Node's size limit: 431 HEADERS_TOO_LARGE;
 * - headers or body slower than `headersTimeout` / `requestTimeout`: 408 REQUEST_TIMEOUT;
 * - chunk extensions over Node's limit: 413 PAYLOAD_TOO_LARGE;
 * - anything else the parser rejects (bad request line, header syntax, smuggling attempts): 400
 *   MALFORMED_REQUEST.
 * The answer is a problem with a fresh `X-Request-Id` (the headers were not read) and `Connection: close`,
 * and the connection is closed. Nothing is written when the client is gone or a response has already begun
 * on the connection (bytes after it would corrupt the stream): the socket is destroyed.
 */
export function answerClientError(
  error: NodeJS.ErrnoException,
  socket: Duplex,
  options: { logger: Logger; language: Language; responseStarted: boolean },
): void {
  if (error.code === 'ECONNRESET' || !socket.writable || options.responseStarted) {
    socket.destroy();
    return;
  }
  const requestId = requestIdOf(undefined);
  const code = codeOf(error);
  const problem = buildProblem(code, options.language, requestId);
  const body = JSON.stringify(problem);
  options.logger.warn({ request_id: requestId, code, reason: error.code }, 'request refused by the parser');
  socket.end(
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? ''}\r\n` +
      `Content-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
    () => socket.destroy(),
  );
}
