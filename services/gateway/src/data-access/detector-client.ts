import type http from 'node:http';
import { AppError } from '@spam-check/service-kit';
import type { z } from 'zod';
import { interpretHttpAnswer } from '../domain/detector-answer';
import type { CallMeta } from '../domain/hybrid-check';
import type { DetectorHealth } from './detector-health';
import { hopByHopTest } from './hop-by-hop';
import { UpstreamError, httpPost, type Upstream } from './http-post';

/**
 * The one client for calling a detector over HTTP, used by every path that does: the mail and text checks
 * (which forward the client's body as it came), the hybrid orchestrator, batches and feedback. The decisions
 * it holds, each in one place:
 * - transport: `httpPost` over the detector's keep-alive pool (`upstream()`, undici), with one deadline for the
 *   whole exchange (connect, headers, body: `timeoutMs`, from `DETECTOR_TIMEOUT_MS` or
 *   `DETECTOR_BATCH_TIMEOUT_MS`) and at most 4 MiB of answer;
 * - headers: `X-Request-Id`, `Accept-Language` and `X-Client-Id` of the call, `Accept:
 *   application/json`, and the body's `Content-Type`; a forwarded public request also passes its end-to-end
 *   headers on, but never its hop-by-hop headers (RFC 9110 §7.6.1), credentials, `Content-Encoding` or the
 *   client's own `X-Client-Id`;
 * - a detector its health watch knows to be down (`watchDetector`) is not called: 503 SERVICE_UNAVAILABLE
 *   with `Retry-After: 1` at once; a call already waiting when the watch marks it down gets the same then;
 * - failures: the deadline passed is 504 DETECTOR_TIMEOUT, no connection or a broken one 503
 *   SERVICE_UNAVAILABLE, an answer too large 502 BAD_DETECTOR_RESPONSE (`upstreamFailure`); the answer itself
 *   is judged by `interpretHttpAnswer` (a result of the schema, a detector problem passed on, else 502).
 */
export interface HttpDetector {
  name: 'email-detector' | 'text-detector';
  agent: Upstream;
  /** Known down: calls are refused at once. */
  isDown(): boolean;
  /** Ends a waiting call when the detector is marked down (see `DetectorHealth`). */
  whileWaiting?: (fail: () => void) => () => void;
  /** The URL of `path` (`/v1/check`, ...) at the detector, parsed once per path rather than per call. */
  endpoint(path: string): URL;
}

/** The two detectors as the gateway calls them over HTTP: their base URLs and keep-alive pools. */
export function httpDetectors(
  urls: { email: string; text: string },
  agents: { email: Upstream; text: Upstream },
  health: { email?: DetectorHealth; text?: DetectorHealth } = {},
): { email: HttpDetector; text: HttpDetector } {
  const detector = (
    name: HttpDetector['name'],
    base: string,
    agent: Upstream,
    watch: DetectorHealth | undefined,
  ): HttpDetector => {
    const endpoints = new Map<string, URL>();
    return {
      name,
      agent,
      isDown: () => watch?.isDown() ?? false,
      ...(watch ? { whileWaiting: (fail: () => void) => watch.whileWaiting(fail) } : {}),
      endpoint(path) {
        let url = endpoints.get(path);
        if (!url) endpoints.set(path, (url = new URL(path, base)));
        return url;
      },
    };
  };
  return {
    email: detector('email-detector', urls.email, agents.email, health.email),
    text: detector('text-detector', urls.text, agents.text, health.text),
  };
}

/** Never passed on from a public request: its credentials, what the client says it is, what we set. */
const NOT_FORWARDED = new Set([
  'authorization',
  'cookie',
  'x-client-id',
  'x-request-id',
  'accept-language',
  'accept',
  'content-type',
  'content-encoding',
  'content-length',
  'host',
  // The body has been read already; the detector must not wait for a `100 Continue` we never relay.
  'expect',
]);

function endToEndHeaders(incoming: http.IncomingHttpHeaders): Record<string, string | string[]> {
  const hopByHop = hopByHopTest(incoming);
  const headers: Record<string, string | string[]> = {};
  for (const name in incoming) {
    const value = incoming[name];
    if (value !== undefined && !NOT_FORWARDED.has(name) && !hopByHop(name)) headers[name] = value;
  }
  return headers;
}

/** A detector the health watch knows to be down: come back in a second, the next probe may find it up. */
const detectorDown = (internal: string, cause?: unknown) =>
  new AppError('SERVICE_UNAVAILABLE', { headers: { 'Retry-After': '1' }, internal, cause });

function upstreamFailure(error: unknown, detector: string): AppError {
  if (error instanceof UpstreamError) {
    const internal = `${detector}: ${error.message}`;
    switch (error.kind) {
      case 'timeout':
        return new AppError('DETECTOR_TIMEOUT', { cause: error, internal });
      case 'too_large':
        return new AppError('BAD_DETECTOR_RESPONSE', { cause: error, internal });
      case 'unavailable':
        return new AppError('SERVICE_UNAVAILABLE', { cause: error, internal });
      case 'down':
        return detectorDown(internal, error);
    }
  }
  return new AppError('SERVICE_UNAVAILABLE', { cause: error, internal: `${detector} call failed` });
}

export interface DetectorCall<S extends z.ZodType> {
  /** `/v1/check`, `/v1/check/batch`, `/v1/feedback`. */
  path: string;
  schema: S;
  /**
   * A value (sent as JSON), or JSON bytes: a public request's body with its headers (`from`), or a body the
   * gateway serialised itself.
   */
  body: { json: unknown } | { bytes: Buffer; from?: http.IncomingHttpHeaders };
  meta: CallMeta;
  timeoutMs: number;
}

/** POSTs to a detector; the result (of `schema`) and the answer's bytes, or an AppError. */
export async function callDetector<S extends z.ZodType>(
  detector: HttpDetector,
  call: DetectorCall<S>,
): Promise<{ result: z.output<S>; bytes: Buffer }> {
  if (detector.isDown()) throw detectorDown(`${detector.name} is down (health watch)`);
  const from = 'bytes' in call.body ? call.body.from : undefined;
  const headers: Record<string, string | string[]> = from ? endToEndHeaders(from) : {};
  headers['X-Request-Id'] = call.meta.requestId;
  headers['Accept-Language'] = call.meta.language;
  headers['X-Client-Id'] = call.meta.clientId;
  headers['Content-Type'] = from?.['content-type'] ?? 'application/json';
  headers.Accept = 'application/json';
  const answer = await httpPost(detector.endpoint(call.path), {
    agent: detector.agent,
    timeoutMs: call.timeoutMs,
    ...(detector.whileWaiting ? { whileWaiting: detector.whileWaiting } : {}),
    headers,
    body: 'bytes' in call.body ? call.body.bytes : JSON.stringify(call.body.json),
  }).catch((error: unknown) => {
    throw upstreamFailure(error, detector.name);
  });
  return {
    result: interpretHttpAnswer(call.schema, answer, detector.name),
    bytes: answer.body,
  };
}
