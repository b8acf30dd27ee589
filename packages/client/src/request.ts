import { DEFAULT_RETRY, send, type Answer, type CallOptions, type RetryPolicy } from './http';

export interface ApiRequestOptions extends CallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Sent as they are (e.g. `Authorization: Bearer …` with a token the caller keeps). */
  headers?: Record<string, string>;
  /** A JSON body, or a form (`URLSearchParams`, sent as `application/x-www-form-urlencoded`). */
  body?: unknown;
  /** Retries of 429 and 503 answers (default: none, the caller decides). */
  retry?: Partial<RetryPolicy>;
  /** A `fetch` of your own (default: the global one). */
  fetch?: typeof fetch;
}

/**
 * One request to any path of the API (the admin API, the token endpoint) for callers that hold their own
 * tokens, such as a back-office that keeps an operator's tokens in its server-side session. It sends
 * `X-Request-Id` and has a deadline (default 10 s); it returns the answer whatever its status (the body
 * parsed when it is JSON) and fails only when no answer came (`TIMEOUT`, `NETWORK_ERROR`).
 */
export function apiRequest(url: string, options: ApiRequestOptions = {}): Promise<Answer> {
  const { method = 'GET', headers = {}, body, retry, fetch: fetchFn, timeoutMs, ...call } = options;
  const form = body instanceof URLSearchParams;
  const init: RequestInit = {
    method,
    headers: {
      Accept: 'application/json',
      ...(body === undefined
        ? {}
        : { 'Content-Type': form ? 'application/x-www-form-urlencoded' : 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: form ? body.toString() : JSON.stringify(body) }),
  };
  return send(url, init, {
    ...call,
    fetch: fetchFn ?? ((input, request) => globalThis.fetch(input, request)),
    retry: { ...DEFAULT_RETRY, maxRetries: 0, ...retry },
    timeoutMs: timeoutMs ?? 10_000,
  });
}
