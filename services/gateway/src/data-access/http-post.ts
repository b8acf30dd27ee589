import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import { Agent, type Dispatcher } from 'undici';

export interface HttpAnswer {
  status: number;
  body: Buffer;
}

/** A failed exchange: no answer in time, or no connection / the connection broke. */
export class UpstreamError extends Error {
  constructor(
    readonly kind: 'timeout' | 'unavailable' | 'too_large',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'UpstreamError';
  }
}

/** How the gateway reaches one upstream (auth, a detector, itself): undici's keep-alive connection pool. */
export type Upstream = Dispatcher;

/**
 * A keep-alive connection pool per upstream, so the gateway does not pay a TCP handshake per request. undici
 * rather than `node:http`'s client: a call costs the gateway about a fifth less CPU (no `ClientRequest`,
 * agent queue and socket listeners per call), and the detector call is on the path of nearly every request.
 * undici's own timeouts are off: `httpPost` keeps one deadline for the whole exchange.
 */
export function upstream(): Upstream {
  return new Agent({
    connections: 256,
    keepAliveTimeout: 30_000,
    headersTimeout: 0,
    bodyTimeout: 0,
  });
}

const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** Header values as undici takes them (numbers written out, absent ones left out). */
function headerValues(headers: OutgoingHttpHeaders | IncomingHttpHeaders): Record<string, string | string[]> {
  const values: Record<string, string | string[]> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined) values[name] = typeof value === 'number' ? String(value) : value;
  }
  return values;
}

/**
 * POSTs a body (or sends another `method`) and buffers the answer, with one deadline for the whole exchange
 * (waiting for a connection, connect, headers and body), so a server that answers slowly byte by byte cannot
 * hold a request beyond `timeoutMs`. The gateway's one HTTP client: detector calls (`callDetector`),
 * introspection, auth admin, the console's API calls and readiness checks.
 *
 * Through undici's `dispatch` with a handler (its public low-level API) rather than `request`: the answer is
 * collected in the handler's callbacks, without the body stream, async iterator and abort signal `request`
 * builds per call (a measurable share of the gateway's CPU per check).
 */
export function httpPost(
  url: URL,
  options: {
    agent: Upstream;
    headers: OutgoingHttpHeaders;
    body: string | Buffer;
    timeoutMs: number;
    method?: string;
  },
): Promise<HttpAnswer> {
  const method = options.method ?? 'POST';
  return new Promise((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let settled = false;
    let status = 0;
    let chunks: Buffer[] = [];
    let size = 0;
    const settle = (outcome: HttpAnswer | UpstreamError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (outcome instanceof UpstreamError) reject(outcome);
      else resolve(outcome);
    };
    const fail = (kind: UpstreamError['kind'], message: string) => {
      const error = new UpstreamError(kind, message);
      // Settled first: aborting may call onResponseError at once, which must not decide the outcome.
      settle(error);
      if (controller && !controller.aborted) controller.abort(error);
    };
    const timer = setTimeout(
      () => fail('timeout', `no answer from ${url.href} within ${options.timeoutMs} ms`),
      options.timeoutMs,
    );
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(started) {
        controller = started;
        // The deadline passed while the request waited for a connection of the pool.
        if (settled) started.abort(new Error('deadline passed before a connection was free'));
      },
      onResponseStart(_controller, statusCode) {
        status = statusCode;
        chunks = [];
        size = 0;
      },
      onResponseData(_controller, chunk) {
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES)
          fail('too_large', `${url.href}: answer larger than ${MAX_ANSWER_BYTES} bytes`);
        else chunks.push(chunk);
      },
      onResponseEnd() {
        settle({ status, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) });
      },
      onResponseError(_controller, error) {
        settle(new UpstreamError('unavailable', `${url.href}: ${error.message}`, { cause: error }));
      },
    };
    try {
      options.agent.dispatch(
        {
          origin: url.origin,
          path: url.pathname + url.search,
          method,
          headers: headerValues(options.headers),
          body: method === 'GET' && options.body.length === 0 ? null : options.body,
        },
        handler,
      );
    } catch (error) {
      settle(new UpstreamError('unavailable', `${url.href}: ${(error as Error).message}`, { cause: error }));
    }
  });
}
