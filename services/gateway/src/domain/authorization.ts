import type { Introspection } from '@spam-check/contracts';
import { AppError } from '@spam-check/service-kit';

const REALM = 'spam-check';

/** The caller a valid token stands for. */
export interface Caller {
  clientId: string;
  /** Absent for a client_credentials token; a `spam:admin` token always has one (auth grants it only to a user). */
  username?: string;
}

/**
 * Bearer token rules (RFC 6750 §3): no token is UNAUTHORIZED with a bare challenge; an inactive (invalid,
 * expired, revoked) token is INVALID_TOKEN; a token without the required scope is INSUFFICIENT_SCOPE.
 * Expiry is checked here too, so a cached introspection never outlives its token.
 */
export function authorize(introspection: Introspection, requiredScope: string, nowSeconds: number): Caller {
  if (!introspection.active || introspection.exp <= nowSeconds)
    throw new AppError('INVALID_TOKEN', {
      headers: { 'WWW-Authenticate': `Bearer realm="${REALM}", error="invalid_token"` },
    });
  if (!introspection.scope.split(' ').includes(requiredScope))
    throw new AppError('INSUFFICIENT_SCOPE', {
      headers: {
        'WWW-Authenticate': `Bearer realm="${REALM}", error="insufficient_scope", scope="${requiredScope}"`,
      },
    });
  return {
    clientId: introspection.client_id,
    ...(introspection.username === undefined ? {} : { username: introspection.username }),
  };
}

export function missingToken(): AppError {
  return new AppError('UNAUTHORIZED', { headers: { 'WWW-Authenticate': `Bearer realm="${REALM}"` } });
}

/** `Authorization: Bearer <token>` (RFC 6750 §2.1; the scheme is case-insensitive). */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header ?? '');
  return match?.[1];
}
