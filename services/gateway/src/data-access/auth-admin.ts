import { ERROR_CATALOGUE, type ErrorCode } from '@spam-check/contracts';
import { AppError, type FieldError } from '@spam-check/service-kit';
import { authServiceCaller, type AuthServiceOptions } from './auth-service';

export interface AdminCallMeta {
  requestId: string;
  language: string;
  /** The administrator, from the token (for the auth service's logs). */
  clientId: string;
  username: string;
}

export interface AuthAdmin {
  /** Calls the auth service's internal `/admin/...`; resolves with its 2xx answer (JSON or nothing). */
  call(
    method: string,
    path: string,
    meta: AdminCallMeta,
    body?: unknown,
  ): Promise<{ status: number; body: unknown }>;
}

/** The problem codes of the auth service's admin answers that are the administrator's to see. */
const RELAYED: ReadonlySet<ErrorCode> = new Set([
  'VALIDATION_FAILED',
  'MALFORMED_JSON',
  'CLIENT_NOT_FOUND',
  'CLIENT_EXISTS',
]);

/**
 * The auth service's admin endpoints (it owns clients), called with the gateway's own client credentials
 * (scope `auth:admin`) after the gateway has checked `spam:admin` on the administrator's token. A problem
 * the administrator caused (bad body, unknown or existing client) is passed on with its code; anything else
 * (auth unreachable, slow, refusing the gateway's credentials) is 503.
 */
export function createAuthAdmin(options: AuthServiceOptions): AuthAdmin {
  const callAuth = authServiceCaller(options);
  return {
    async call(method, path, meta, body) {
      const answer = await callAuth(path, {
        method,
        requestId: meta.requestId,
        headers: {
          'Accept-Language': meta.language,
          'X-Admin-Client-Id': meta.clientId,
          'X-Admin-Username': meta.username,
        },
        body: body === undefined ? '' : JSON.stringify(body),
        failure: 'auth admin call failed',
      });
      let parsed: unknown;
      try {
        parsed = answer.body.length > 0 ? JSON.parse(answer.body.toString('utf8')) : undefined;
      } catch (error) {
        throw new AppError('SERVICE_UNAVAILABLE', {
          cause: error,
          internal: 'auth admin answer is not JSON',
        });
      }
      if (answer.status >= 200 && answer.status < 300) return { status: answer.status, body: parsed };
      const code = (parsed as { code?: unknown } | undefined)?.code;
      if (typeof code === 'string' && code in ERROR_CATALOGUE && RELAYED.has(code as ErrorCode)) {
        const errors = (parsed as { errors?: FieldError[] }).errors;
        throw new AppError(code as ErrorCode, errors ? { errors } : {});
      }
      throw new AppError('SERVICE_UNAVAILABLE', {
        internal: `auth admin ${method} ${path} answered ${answer.status}`,
      });
    },
  };
}
