import { AppError } from '@spam-check/service-kit';
import { httpPost, type Upstream } from './http-post';

export interface ApiAnswer {
  status: number;
  /** The parsed JSON answer (a result, a problem), or undefined for an empty one. */
  body: unknown;
}

export interface ApiCallMeta {
  /** The gateway's own public listener, as the browser reached it (`http://127.0.0.1:8080`). */
  baseUrl: string;
  accessToken: string;
  requestId: string;
  language: string;
}

export type ConsoleApi = (
  method: 'GET' | 'PUT',
  path: string,
  meta: ApiCallMeta,
  body?: unknown,
) => Promise<ApiAnswer>;

/**
 * The console reads and changes everything through the gateway's own public admin API, with the session's
 * bearer token, over loopback HTTP (a backend for the browser): the same token and scope check, rate limit,
 * validation, admin log and answers as any API caller gets, and no second path to keep in step.
 * No answer in time or no connection: 503.
 */
export function consoleApi(agent: Upstream, timeoutMs: number): ConsoleApi {
  return async (method, path, meta, body) => {
    const answer = await httpPost(new URL(path, meta.baseUrl), {
      method,
      agent,
      timeoutMs,
      headers: {
        Authorization: `Bearer ${meta.accessToken}`,
        Accept: 'application/json',
        'Accept-Language': meta.language,
        'X-Request-Id': meta.requestId,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? '' : JSON.stringify(body),
    }).catch((error: unknown) => {
      throw new AppError('SERVICE_UNAVAILABLE', {
        cause: error,
        internal: 'console: gateway API call failed',
      });
    });
    const text = answer.body.toString('utf8');
    try {
      return { status: answer.status, body: text ? (JSON.parse(text) as unknown) : undefined };
    } catch (error) {
      throw new AppError('SERVICE_UNAVAILABLE', {
        cause: error,
        internal: `console: ${path} answered non-JSON`,
      });
    }
  };
}
