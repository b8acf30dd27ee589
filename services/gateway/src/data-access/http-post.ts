import { Agent, type Dispatcher } from 'undici';

export interface HttpAnswer {
  status: number;
  body: Buffer;
  /** The answer's `Retry-After`, kept for an answer other than 200 (a refusal says when to come back). */
  retryAfter: string | undefined;
}

/** A failed exchange: no answer in time, or no connection / the connection broke. */
export class UpstreamError extends Error {
  constructor(
    readonly kind: 'timeout' | 'unavailable' | 'too_large' | 'down',
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

/** Header values as undici takes them: an absent value (`undefined`) is left out by undici itself. */
export type UpstreamHeaders = Record<string, string | string[] | undefined>;

/**
 * One exchange's state and undici's handler for it, as one object with its methods on the prototype: per call
 * that is one allocation instead of a closure per callback (the detector call is on the path of nearly every
 * request). Settles exactly once: with the answer, or with an UpstreamError (deadline, no connection, a broken
 * one, an answer too large).
 */
class Exchange implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  private settled = false;
  private status = 0;
  private retryAfter: string | undefined;
  private chunks: Buffer[] = [];
  private size = 0;
  private readonly timer: NodeJS.Timeout;
  /** Forgets the exchange at the upstream's health watch once it settled. */
  release: () => void = () => undefined;

  constructor(
    private readonly href: string,
    timeoutMs: number,
    private readonly resolve: (answer: HttpAnswer) => void,
    private readonly reject: (error: UpstreamError) => void,
  ) {
    // Judged one loop turn late (`setImmediate`): after a pause of the gateway's own event loop, timers run
    // before the input that arrived meanwhile is read, and an answer already received must not count as none.
    this.timer = setTimeout(
      () => setImmediate(() => this.fail('timeout', `no answer from ${href} within ${timeoutMs} ms`)),
      timeoutMs,
    );
  }

  settle(outcome: HttpAnswer | UpstreamError): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.release();
    if (outcome instanceof UpstreamError) this.reject(outcome);
    else this.resolve(outcome);
  }

  fail(kind: UpstreamError['kind'], message: string): void {
    if (this.settled) return;
    const error = new UpstreamError(kind, message);
    // Settled first: aborting may call onResponseError at once, which must not decide the outcome.
    this.settle(error);
    if (this.controller && !this.controller.aborted) this.controller.abort(error);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    // The deadline passed while the request waited for a connection of the pool.
    if (this.settled) controller.abort(new Error('deadline passed before a connection was free'));
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    this.status = statusCode;
    const retryAfter = statusCode === 200 ? undefined : headers['retry-after'];
    this.retryAfter = typeof retryAfter === 'string' ? retryAfter : undefined;
    this.chunks = [];
    this.size = 0;
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size > MAX_ANSWER_BYTES)
      this.fail('too_large', `${this.href}: answer larger than ${MAX_ANSWER_BYTES} bytes`);
    else this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    const { chunks, retryAfter } = this;
    const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    this.settle({ status: this.status, body, retryAfter });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.settle(new UpstreamError('unavailable', `${this.href}: ${error.message}`, { cause: error }));
  }
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
    headers: UpstreamHeaders;
    body: string | Buffer;
    timeoutMs: number;
    method?: string;
    /** Ends the exchange early (kind `down`) when the upstream's health watch marks it down meanwhile. */
    whileWaiting?: (fail: () => void) => () => void;
  },
): Promise<HttpAnswer> {
  const method = options.method ?? 'POST';
  return new Promise((resolve, reject) => {
    const exchange = new Exchange(url.href, options.timeoutMs, resolve, reject);
    if (options.whileWaiting)
      exchange.release = options.whileWaiting(() =>
        exchange.fail('down', `${url.href}: marked down while the call waited`),
      );
    try {
      options.agent.dispatch(
        {
          origin: url.origin,
          path: url.pathname + url.search,
          method,
          headers: options.headers,
          body: method === 'GET' && options.body.length === 0 ? null : options.body,
        },
        exchange,
      );
    } catch (error) {
      exchange.settle(
        new UpstreamError('unavailable', `${url.href}: ${(error as Error).message}`, { cause: error }),
      );
    }
  });
}

/**
 * HTTP Basic credentials of the gateway's own client at auth, each part form-encoded first (RFC 6749
 * §2.3.1), as auth reads them.
 */
export function basicAuthorization(clientId: string, clientSecret: string): string {
  const credentials = `${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`;
  return `Basic ${Buffer.from(credentials).toString('base64')}`;
}
