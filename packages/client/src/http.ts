import type { ErrorCode, OAuthError, Problem } from '@spam-check/contracts';
import { SpamCheckError } from './errors';

/** How 429 and 503 answers are retried. */
export interface RetryPolicy {
  /** Retries after the first attempt (0: none). */
  maxRetries: number;
  /** The longest wait before a retry; an answer asking for longer (`Retry-After`) is not retried. */
  maxDelayMs: number;
  /** The wait when the answer has no `Retry-After`, doubled on each retry. */
  baseDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 3, maxDelayMs: 30_000, baseDelayMs: 500 };

export interface CallOptions {
  /** Cancels the call (and any wait for a retry); the call rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Deadline of each attempt, in milliseconds. */
  timeoutMs?: number;
  /** Sent as `X-Request-Id` (the same on every retry); generated when absent. */
  requestId?: string;
  /** Hears the status and headers of the last answer (e.g. `Retry-After` of a partly rate-limited batch). */
  onAnswer?: (answer: { status: number; headers: Headers; requestId: string }) => void;
}

export interface Answer {
  status: number;
  headers: Headers;
  /** Parsed JSON when the answer is JSON, else the text. */
  body: unknown;
  requestId: string;
}

export interface SendOptions extends CallOptions {
  fetch: typeof fetch;
  /** The `Authorization` header of each attempt: a retry after a long wait may need a renewed token. */
  authorization?: () => Promise<string>;
  retry: RetryPolicy;
  timeoutMs: number;
}

const RETRIED = new Set([429, 503]);

/** Seconds of a `Retry-After` header (delta-seconds or an HTTP date), or undefined. */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/**
 * The wait before retry number `retry` (1-based), or undefined for no retry. `Retry-After` when given (never
 * earlier; longer than `maxDelayMs` is no retry), else the base delay doubled per retry; plus up to 20 %
 * random jitter, so that many clients refused at once do not come back at once; at most `maxDelayMs`.
 */
function retryDelayMs(
  retry: number,
  retryAfter: number | undefined,
  policy: RetryPolicy,
): number | undefined {
  if (retry > policy.maxRetries) return undefined;
  const base = retryAfter === undefined ? policy.baseDelayMs * 2 ** (retry - 1) : retryAfter * 1000;
  if (base > policy.maxDelayMs) return undefined;
  return Math.min(policy.maxDelayMs, Math.round(base * (1 + Math.random() * 0.2)));
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!/json/i.test(response.headers.get('content-type') ?? '')) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

async function attempt(url: string, init: RequestInit, options: SendOptions, requestId: string) {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  try {
    const response = await options.fetch(url, { ...init, signal });
    return { status: response.status, headers: response.headers, body: await readBody(response), requestId };
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    const timedOut = timeout.aborted;
    throw new SpamCheckError({
      message: timedOut
        ? `no answer from ${url} within ${options.timeoutMs} ms`
        : `${url}: ${error instanceof Error ? error.message : String(error)}`,
      status: 0,
      code: timedOut ? 'TIMEOUT' : 'NETWORK_ERROR',
      requestId,
      cause: error,
    });
  }
}

/**
 * One call: sends `X-Request-Id`, gives each attempt its deadline, and retries 429 and 503 answers per the
 * policy. Returns the last answer, whatever its status: the caller turns non-2xx answers into errors.
 */
export async function send(url: string, init: RequestInit, options: SendOptions): Promise<Answer> {
  const requestId = options.requestId ?? crypto.randomUUID();
  const headers = new Headers(init.headers);
  headers.set('X-Request-Id', requestId);
  for (let retry = 1; ; retry += 1) {
    if (options.authorization) headers.set('Authorization', await options.authorization());
    const answer = await attempt(url, { ...init, headers }, options, requestId);
    const delay = RETRIED.has(answer.status)
      ? retryDelayMs(retry, retryAfterSeconds(answer.headers.get('retry-after')), options.retry)
      : undefined;
    if (delay === undefined) {
      options.onAnswer?.(answer);
      return answer;
    }
    await sleep(delay, options.signal);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** The error of an answer that is not a success: its problem document, its OAuth error, or BAD_RESPONSE. */
export function answerError(answer: Answer, url: string): SpamCheckError {
  const { body, status, requestId } = answer;
  const retryAfter = retryAfterSeconds(answer.headers.get('retry-after'));
  const common = { status, requestId, ...(retryAfter === undefined ? {} : { retryAfter }) };
  if (isObject(body) && typeof body.code === 'string' && typeof body.status === 'number')
    return new SpamCheckError({
      ...common,
      message: `${body.code}: ${typeof body.detail === 'string' ? body.detail : ''}`,
      code: body.code as ErrorCode,
      problem: body as Problem,
    });
  if (isObject(body) && typeof body.error === 'string')
    return new SpamCheckError({
      ...common,
      message: `${body.error}${typeof body.error_description === 'string' ? `: ${body.error_description}` : ''}`,
      code: body.error as OAuthError['error'],
      oauthError: body as OAuthError,
    });
  return new SpamCheckError({ ...common, message: `${url} answered ${status}`, code: 'BAD_RESPONSE' });
}
