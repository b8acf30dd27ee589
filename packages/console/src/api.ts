import { apiRequest, isSpamCheckError } from '@spam-check/client';
import { AppError } from '@spam-check/service-kit';

export interface ApiAnswer {
  status: number;
  /** The parsed JSON answer (a result, a problem), or undefined for an empty one. */
  body: unknown;
}

export interface ApiCallMeta {
  /** The API's public base URL (`http://127.0.0.1:8080`). */
  baseUrl: string;
  accessToken: string;
  requestId: string;
  language: string;
}

export type ConsoleApi = (
  method: 'GET' | 'PUT' | 'POST' | 'DELETE',
  path: string,
  meta: ApiCallMeta,
  body?: unknown,
) => Promise<ApiAnswer>;

/**
 * The console reads and changes everything through the public admin API, with the session's bearer token,
 * over HTTP (a backend for the browser): the same token and scope check, rate limit, validation, admin log
 * and answers as any API caller gets, and no second path to keep in step. No answer in time, no connection,
 * or an answer that is not JSON: 503.
 */
export function consoleApi(timeoutMs: number): ConsoleApi {
  return async (method, path, meta, body) => {
    const answer = await apiRequest(new URL(path, meta.baseUrl).toString(), {
      method,
      timeoutMs,
      requestId: meta.requestId,
      headers: { Authorization: `Bearer ${meta.accessToken}`, 'Accept-Language': meta.language },
      body,
    }).catch((error: unknown) => {
      throw new AppError('SERVICE_UNAVAILABLE', {
        cause: error,
        internal: `console: API call failed${isSpamCheckError(error) ? ` (${error.code})` : ''}`,
      });
    });
    if (typeof answer.body === 'string' && answer.body !== '')
      throw new AppError('SERVICE_UNAVAILABLE', { internal: `console: ${path} answered non-JSON` });
    return { status: answer.status, body: answer.body === '' ? undefined : answer.body };
  };
}
