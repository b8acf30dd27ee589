import type http from 'node:http';
import type { Language } from '@spam-check/contracts';
import { requestContext, sendJson } from '@spam-check/service-kit';
import type { Request, RequestHandler, Response } from 'express';
import type { ClientAuthenticator } from '../../domain/client-authenticator';
import { INTROSPECT_SCOPE } from '../../domain/scopes';
import type { TokenService } from '../../domain/token-service';
import { authenticateCaller, exchangeOf, type Exchange } from './client-auth';
import { formReader } from './form-body';
import type { TokenMetrics } from './metrics';
import { sendOAuthError } from './oauth-errors';
import { oauthFailure } from './token-endpoint';

/** Runs `handler`; store outages become 503 `temporarily_unavailable`, bugs are thrown on (the kit's 500). */
async function answerOAuth(
  res: http.ServerResponse,
  language: Language,
  handler: () => Promise<void>,
): Promise<void> {
  try {
    await handler();
  } catch (error) {
    const failure = oauthFailure(error);
    if (!failure) throw error;
    sendOAuthError(res, failure, language);
  }
}

/** The `token` parameter of introspection and revocation, or undefined after answering invalid_request. */
function requiredToken({ body, res, context }: Exchange): string | undefined {
  const token = body.token;
  if (typeof token === 'string' && token !== '') return token;
  sendOAuthError(
    res,
    { status: 400, error: 'invalid_request', description: 'invalid_request', detail: 'token' },
    context.language,
  );
  return undefined;
}

/**
 * POST /oauth/introspect (RFC 7662), internal: the caller must be a client with scope `auth:introspect`.
 * The gateway calls it for every token it has not cached, so it is one of the kit's hot routes: one cached
 * client check and one store read by token hash. It takes a form or, being internal, JSON.
 */
export function introspectRoute(deps: {
  clients: ClientAuthenticator;
  tokens: TokenService;
  metrics: TokenMetrics;
  trustedProxyHops: number;
  maxBodyBytes: number;
}): RequestHandler {
  const readForm = formReader(deps.maxBodyBytes, { allowJson: true });
  return async (req, res) => {
    const context = requestContext(res);
    const body = await readForm(req, res, context.language);
    if (body === undefined) return;
    const exchange = { req, body, res, context };
    await answerOAuth(res, context.language, async () => {
      const caller = await authenticateCaller(exchange, deps, true);
      if (!caller) return;
      if (!caller.scopes.includes(INTROSPECT_SCOPE)) {
        deps.metrics.errors.inc({ error: 'unauthorized_client' });
        return sendOAuthError(
          res,
          { status: 403, error: 'unauthorized_client', description: 'unauthorized_client' },
          context.language,
        );
      }
      const token = requiredToken(exchange);
      if (token === undefined) return;
      const answer = await deps.tokens.introspect(token);
      deps.metrics.introspections.inc({ active: String(answer.active) });
      sendJson(res, 200, answer, { 'Cache-Control': 'no-store', Pragma: 'no-cache' });
    });
  };
}

/**
 * POST /oauth/revoke (RFC 7009), public, client-authenticated. 200 with an empty body whether or not the
 * token was known (RFC 7009 §2.2), so it cannot be used to probe tokens.
 */
export function revokeEndpoint(deps: {
  clients: ClientAuthenticator;
  tokens: TokenService;
  metrics: TokenMetrics;
  trustedProxyHops: number;
}): RequestHandler {
  return async (req: Request, res: Response) => {
    const exchange = exchangeOf(req, res);
    await answerOAuth(res, exchange.context.language, async () => {
      const caller = await authenticateCaller(exchange, deps, true);
      if (!caller) return;
      const token = requiredToken(exchange);
      if (token === undefined) return;
      const hint = exchange.body.token_type_hint;
      await deps.tokens.revoke(token, caller.id, typeof hint === 'string' ? hint : undefined);
      res.status(200).set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' }).end();
    });
  };
}
