import { AppError } from '@spam-check/service-kit';
import { basicAuthorization, httpPost, type Upstream } from './http-post';

/** Where the auth service is, and the gateway's own client there. */
export interface AuthServiceOptions {
  authUrl: string;
  clientId: string;
  clientSecret: string;
  timeoutMs: number;
  agent: Upstream;
}

interface AuthServiceCall {
  method?: string;
  requestId: string;
  headers: Record<string, string>;
  body: string;
  /** What the log says when the call does not reach auth. */
  failure: string;
}

/**
 * A JSON call to the auth service's internal API as the gateway itself (its own client credentials, the
 * request id passed on); a call that does not reach auth or gets no answer in time is SERVICE_UNAVAILABLE.
 */
export function authServiceCaller(options: AuthServiceOptions) {
  const authorization = basicAuthorization(options.clientId, options.clientSecret);
  return (path: string, call: AuthServiceCall) =>
    httpPost(new URL(path, options.authUrl), {
      ...(call.method === undefined ? {} : { method: call.method }),
      agent: options.agent,
      timeoutMs: options.timeoutMs,
      headers: {
        Authorization: authorization,
        'Content-Type': 'application/json',
        Accept: 'application/json',
        'X-Request-Id': call.requestId,
        ...call.headers,
      },
      body: call.body,
    }).catch((error: unknown) => {
      throw new AppError('SERVICE_UNAVAILABLE', { cause: error, internal: call.failure });
    });
}
