import type http from 'node:http';
import { AppError, clientAddress, requestContext, type RequestContext } from '@spam-check/service-kit';
import type { Request, RequestHandler, Response } from 'express';
import { StoreUnavailableError, type ClientRecord } from '../../domain/store';
import type { ClientAuthenticator } from '../../domain/client-authenticator';
import { presentedCredentials } from './client-credentials';
import type { TokenMetrics } from './metrics';
import { BASIC_CHALLENGE, sendOAuthError, tooManyAttempts, type OAuthFailure } from './oauth-errors';

export interface Exchange {
  req: http.IncomingMessage;
  /** The parsed form (or, where allowed, JSON) body. */
  body: Record<string, unknown>;
  res: http.ServerResponse;
  context: RequestContext;
}

/** An Express route's request as an `Exchange`. */
export function exchangeOf(req: Request, res: Response): Exchange {
  return { req, body: (req.body ?? {}) as Record<string, unknown>, res, context: requestContext(res) };
}

/**
 * Authenticates the calling client (token, revocation, introspection), or answers the RFC 6749 §5.2 error
 * itself and returns undefined: invalid_request for two methods at once, 429 over the attempt limits (before
 * any scrypt), invalid_client otherwise; 401 with a Basic challenge when Basic was tried or
 * `alwaysChallenge` (revocation and introspection), else 400.
 */
export async function authenticateCaller(
  exchange: Exchange,
  deps: { clients: ClientAuthenticator; metrics: TokenMetrics; trustedProxyHops: number },
  alwaysChallenge: boolean,
): Promise<ClientRecord | undefined> {
  const { req, res, context } = exchange;
  const credentials = presentedCredentials(req.headers.authorization, exchange.body);
  const fail = (failure: OAuthFailure) => {
    deps.metrics.errors.inc({ error: failure.error });
    sendOAuthError(res, failure, context.language);
    return undefined;
  };
  if (credentials.kind === 'both')
    return fail({ status: 400, error: 'invalid_request', description: 'one_client_method' });
  if (credentials.kind === 'credentials') {
    const ip = clientAddress(req, deps.trustedProxyHops);
    const check = await deps.clients.authenticate(credentials.clientId, credentials.secret, ip);
    if (check.ok) return check.client;
    if (check.reason === 'throttled') {
      context.log.warn({ ip }, 'client authentication throttled');
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

/** A route for the gateway only: its client credentials with `scope`; a store outage is 503. */
export function forGateway(
  deps: { clients: ClientAuthenticator; metrics: TokenMetrics; trustedProxyHops: number },
  scope: string,
) {
  return (run: (req: Request, res: Response) => Promise<void>): RequestHandler =>
    async (req, res, next) => {
      try {
        const caller = await authenticateCaller(exchangeOf(req, res), deps, true);
        if (!caller) return;
        if (!caller.scopes.includes(scope))
          return sendOAuthError(
            res,
            { status: 403, error: 'unauthorized_client', description: 'unauthorized_client' },
            'en',
          );
        await run(req, res);
      } catch (error) {
        next(
          error instanceof StoreUnavailableError
            ? new AppError('SERVICE_UNAVAILABLE', { cause: error, headers: { 'Retry-After': '5' } })
            : error,
        );
      }
    };
}
