import { requestContext } from '@spam-check/service-kit';
import type { Request, RequestHandler, Response } from 'express';
import type { ClientAuthenticator } from '../../domain/client-authenticator';
import { INTROSPECT_SCOPE } from '../../domain/scopes';
import type { TokenService } from '../../domain/token-service';
import { authenticateCaller } from './client-auth';
import type { TokenMetrics } from './metrics';
import { sendOAuthError } from './oauth-errors';
import { oauthFailure } from './token-endpoint';

/** Runs an async handler; store outages become 503 `temporarily_unavailable`, bugs the kit's 500. */
export function oauthHandler(handler: (req: Request, res: Response) => Promise<void>): RequestHandler {
  return async (req, res, next) => {
    try {
      await handler(req, res);
    } catch (error) {
      const failure = oauthFailure(error);
      if (!failure) return next(error);
      sendOAuthError(res, failure, requestContext(res).language);
    }
  };
}

/** The `token` parameter of introspection and revocation, or undefined after answering invalid_request. */
function requiredToken(req: Request, res: Response): string | undefined {
  const token = (req.body as Record<string, unknown>).token;
  if (typeof token === 'string' && token !== '') return token;
  sendOAuthError(
    res,
    { status: 400, error: 'invalid_request', description: 'invalid_request', detail: 'token' },
    requestContext(res).language,
  );
  return undefined;
}

/**
 * POST /oauth/introspect (RFC 7662), internal: the caller must be a client with scope `auth:introspect`.
 * The hot path is one cached client check and one store read by token hash.
 */
export function introspectEndpoint(deps: {
  clients: ClientAuthenticator;
  tokens: TokenService;
  metrics: TokenMetrics;
}): RequestHandler {
  return oauthHandler(async (req, res) => {
    const caller = await authenticateCaller(req, res, deps, true);
    if (!caller) return;
    const language = requestContext(res).language;
    if (!caller.scopes.includes(INTROSPECT_SCOPE)) {
      deps.metrics.errors.inc({ error: 'unauthorized_client' });
      return sendOAuthError(
        res,
        { status: 403, error: 'unauthorized_client', description: 'unauthorized_client' },
        language,
      );
    }
    const token = requiredToken(req, res);
    if (token === undefined) return;
    const answer = await deps.tokens.introspect(token);
    deps.metrics.introspections.inc({ active: String(answer.active) });
    res.status(200).set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' }).json(answer);
  });
}

/**
 * POST /oauth/revoke (RFC 7009), public, client-authenticated. 200 with an empty body whether or not the
 * token was known (RFC 7009 §2.2), so it cannot be used to probe tokens.
 */
export function revokeEndpoint(deps: {
  clients: ClientAuthenticator;
  tokens: TokenService;
  metrics: TokenMetrics;
}): RequestHandler {
  return oauthHandler(async (req, res) => {
    const caller = await authenticateCaller(req, res, deps, true);
    if (!caller) return;
    const token = requiredToken(req, res);
    if (token === undefined) return;
    const hint = (req.body as Record<string, unknown>).token_type_hint;
    await deps.tokens.revoke(token, caller.id, typeof hint === 'string' ? hint : undefined);
    res.status(200).set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' }).end();
  });
}
