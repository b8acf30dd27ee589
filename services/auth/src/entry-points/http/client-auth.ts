import { requestContext } from '@spam-check/service-kit';
import type { Request, Response } from 'express';
import type { ClientRecord } from '../../data-access/store';
import type { ClientAuthenticator } from '../../domain/client-authenticator';
import { presentedCredentials } from './client-credentials';
import type { TokenMetrics } from './metrics';
import { BASIC_CHALLENGE, sendOAuthError, tooManyAttempts, type OAuthFailure } from './oauth-errors';

/** The address the brute-force limits count: the socket, or as many X-Forwarded-For hops as are trusted. */
export function clientIp(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

/**
 * Authenticates the calling client (token, revocation, introspection), or answers the RFC 6749 §5.2 error
 * itself and returns undefined: invalid_request for two methods at once, 429 over the attempt limits (before
 * any scrypt), invalid_client otherwise; 401 with a Basic challenge when Basic was tried or
 * `alwaysChallenge` (revocation and introspection), else 400.
 */
export async function authenticateCaller(
  req: Request,
  res: Response,
  deps: { clients: ClientAuthenticator; metrics: TokenMetrics },
  alwaysChallenge: boolean,
): Promise<ClientRecord | undefined> {
  const credentials = presentedCredentials(req);
  const fail = (failure: OAuthFailure) => {
    deps.metrics.errors.inc({ error: failure.error });
    sendOAuthError(res, failure, requestContext(res).language);
    return undefined;
  };
  if (credentials.kind === 'both')
    return fail({ status: 400, error: 'invalid_request', description: 'one_client_method' });
  if (credentials.kind === 'credentials') {
    const check = await deps.clients.authenticate(credentials.clientId, credentials.secret, clientIp(req));
    if (check.ok) return check.client;
    if (check.reason === 'throttled') {
      requestContext(res).log.warn({ ip: clientIp(req) }, 'client authentication throttled');
      return fail(tooManyAttempts(check.retryAfterSeconds));
    }
  }
  return fail(
    alwaysChallenge || credentials.basic
      ? {
          status: 401,
          error: 'invalid_client',
          description: 'invalid_client',
          headers: { 'WWW-Authenticate': BASIC_CHALLENGE },
        }
      : { status: 400, error: 'invalid_client', description: 'invalid_client' },
  );
}
