import http from 'node:http';

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

/** A keep-alive agent per upstream, so the gateway does not pay a TCP handshake per request. */
export function keepAliveAgent(): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64, scheduling: 'lifo' });
}

const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/**
 * POSTs a body (or sends another `method`) and buffers the answer, with one deadline for the whole exchange
 * (connect, headers and body), so a server that answers slowly byte by byte cannot hold a request beyond
 * `timeoutMs`. The gateway's one HTTP client: detector calls (`callDetector`), introspection, auth admin.
 */
export function httpPost(
  url: string,
  options: {
    agent: http.Agent;
    headers: http.OutgoingHttpHeaders;
    body: string | Buffer;
    timeoutMs: number;
    method?: string;
  },
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (error: Error | undefined, answer?: HttpAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(answer as HttpAnswer);
    };
    const request = http.request(url, {
      method: options.method ?? 'POST',
      agent: options.agent,
      headers: { ...options.headers, 'Content-Length': String(Buffer.byteLength(options.body)) },
    });
    const timer = setTimeout(() => {
      settle(new UpstreamError('timeout', `no answer from ${url} within ${options.timeoutMs} ms`));
      request.destroy();
    }, options.timeoutMs);
    request.on('error', (error) =>
      settle(new UpstreamError('unavailable', `${url}: ${error.message}`, { cause: error })),
    );
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES) {
          settle(new UpstreamError('too_large', `${url}: answer larger than ${MAX_ANSWER_BYTES} bytes`));
          request.destroy();
          return;
        }
        chunks.push(chunk);
      });
      response.on('end', () =>
        settle(undefined, { status: response.statusCode ?? 0, body: Buffer.concat(chunks) }),
      );
      response.on('error', (error) =>
        settle(new UpstreamError('unavailable', `${url}: ${error.message}`, { cause: error })),
      );
      response.on('aborted', () => settle(new UpstreamError('unavailable', `${url}: answer aborted`)));
    });
    request.end(options.body);
  });
}
