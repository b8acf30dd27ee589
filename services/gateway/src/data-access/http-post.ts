import { EventEmitter } from 'node:events';
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

/**
 * A call's deadline as undici's abort signal: undici also takes an EventEmitter with `aborted`, which costs a
 * fraction of an `AbortController` (a measurable share of a detector call's CPU in profiles).
 */
class Deadline extends EventEmitter {
  aborted = false;
  private readonly timer: NodeJS.Timeout;

  constructor(ms: number) {
    super();
    this.timer = setTimeout(() => {
      this.aborted = true;
      this.emit('abort');
    }, ms);
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}

/** Header values as undici takes them (numbers written out, absent ones left out). */
function headerValues(headers: OutgoingHttpHeaders | IncomingHttpHeaders): Record<string, string | string[]> {
  const values: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) values[name] = typeof value === 'number' ? String(value) : value;
  return values;
}

/**
 * POSTs a body (or sends another `method`) and buffers the answer, with one deadline for the whole exchange
 * (connect, headers and body), so a server that answers slowly byte by byte cannot hold a request beyond
 * `timeoutMs`. The gateway's one HTTP client: detector calls (`callDetector`), introspection, auth admin, the
 * console's API calls and readiness checks.
 */
export async function httpPost(
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
  const deadline = new Deadline(options.timeoutMs);
  const failure = (error: unknown): UpstreamError =>
    deadline.aborted
      ? new UpstreamError('timeout', `no answer from ${url.href} within ${options.timeoutMs} ms`, {
          cause: error,
        })
      : error instanceof UpstreamError
        ? error
        : new UpstreamError('unavailable', `${url.href}: ${(error as Error).message}`, { cause: error });
  try {
    const answer = await options.agent.request({
      origin: url.origin,
      path: url.pathname + url.search,
      method,
      headers: headerValues(options.headers),
      body: method === 'GET' && options.body.length === 0 ? null : options.body,
      signal: deadline,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of answer.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_ANSWER_BYTES) {
        answer.body.destroy();
        throw new UpstreamError('too_large', `${url.href}: answer larger than ${MAX_ANSWER_BYTES} bytes`);
      }
      chunks.push(chunk);
    }
    return { status: answer.statusCode, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) };
  } catch (error) {
    throw failure(error);
  } finally {
    deadline.clear();
  }
}
