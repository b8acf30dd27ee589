import type ExpressOAuthServer from '@node-oauth/express-oauth-server';
import { OAuthError, Request as OAuthRequest, Response as OAuthResponse } from '@node-oauth/oauth2-server';
import type { OAuthErrorCode } from '@spam-check/contracts';
import { requestContext } from '@spam-check/service-kit';
import type { Request, RequestHandler } from 'express';
import { StoreUnavailableError } from '../../data-access/store';
import { GRANT_TYPES } from '../../domain/accounts';
import type { LoginGuard } from '../../domain/login-guard';
import type { Lifetimes } from '../../domain/token-service';
import {
  BASIC_CHALLENGE,
  DESCRIPTION_KEYS,
  sendOAuthError,
  type DescriptionKey,
  type OAuthFailure,
} from './oauth-errors';
import type { TokenMetrics } from './metrics';

const RETRY_AFTER_UNAVAILABLE = '5';

export function unavailable(): OAuthFailure {
  return {
    status: 503,
    error: 'temporarily_unavailable',
    description: 'temporarily_unavailable',
    headers: { 'Retry-After': RETRY_AFTER_UNAVAILABLE },
  };
}

function storeFailure(error: unknown): boolean {
  return (
    error instanceof StoreUnavailableError ||
    (error instanceof OAuthError && (error as { inner?: unknown }).inner instanceof StoreUnavailableError)
  );
}

/**
 * Maps the library's errors to RFC 6749 §5.2 answers; undefined for anything else (a bug: the kit's 500).
 * `invalid_client` is 401 with a Basic challenge whenever the client tried the Authorization header.
 */
export function oauthFailure(error: unknown, req: Request): OAuthFailure | undefined {
  if (storeFailure(error)) return unavailable();
  if (!(error instanceof OAuthError) || error.name === 'server_error') return undefined;
  const code = error.name as OAuthErrorCode;
  if (code === 'invalid_client' && req.headers.authorization !== undefined)
    return { status: 401, error: code, description: code, headers: { 'WWW-Authenticate': BASIC_CHALLENGE } };
  const key = (error as { description?: string }).description;
  const description: DescriptionKey =
    key && (DESCRIPTION_KEYS as string[]).includes(key)
      ? (key as DescriptionKey)
      : (DESCRIPTION_KEYS as string[]).includes(code)
        ? code
        : 'invalid_request';
  // The library's messages for invalid_request name the parameter; they carry nothing secret.
  const detail = code === 'invalid_request' ? error.message : undefined;
  return { status: error.code, error: code, description, ...(detail ? { detail } : {}) };
}

/**
 * POST /oauth/token. The library (through our model) authenticates the client and runs the password grant;
 * this handler adds what it cannot: brute-force accounting around the password check, exact lifetimes,
 * our error rendering (localized, 503 when Redis is down, Basic challenge).
 */
export function tokenEndpoint(deps: {
  oauth: ExpressOAuthServer;
  guard: LoginGuard;
  lifetimes: Lifetimes;
  metrics: TokenMetrics;
}): RequestHandler {
  return async (req, res, next) => {
    const { language, log } = requestContext(res);
    const body = req.body as Record<string, string | undefined>;
    const grant = body.grant_type ?? '';
    const username = grant === 'password' && body.username ? body.username : undefined;
    const ip = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    const fail = (failure: OAuthFailure) => {
      deps.metrics.errors.inc({ error: failure.error });
      sendOAuthError(res, failure, language);
    };
    try {
      // The library knows more grants (authorization_code, client_credentials) than this server offers.
      if (grant !== '' && !(GRANT_TYPES as readonly string[]).includes(grant))
        return fail({ status: 400, error: 'unsupported_grant_type', description: 'unsupported_grant_type' });
      if (username !== undefined) {
        const verdict = await deps.guard.check(username, ip);
        if (!verdict.allowed) {
          log.warn({ ip }, 'login throttled');
          return fail({
            status: 429,
            error: 'slow_down',
            description: 'slow_down',
            headers: { 'Retry-After': String(verdict.retryAfterSeconds) },
          });
        }
      }
      const token = await deps.oauth.server.token(new OAuthRequest(req), new OAuthResponse(res));
      if (username !== undefined) await deps.guard.succeeded(username);
      deps.metrics.issued.inc({ grant });
      res
        .status(200)
        .set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' })
        .json({
          access_token: token.accessToken,
          token_type: 'Bearer',
          expires_in: deps.lifetimes.accessSeconds,
          refresh_token: token.refreshToken,
          scope: (token.scope ?? []).join(' '),
        });
    } catch (error) {
      let outcome: unknown = error;
      const name = error instanceof OAuthError ? error.name : undefined;
      if (grant === 'password' && (name === 'invalid_grant' || name === 'invalid_client')) {
        try {
          await deps.guard.failed(name === 'invalid_grant' ? username : undefined, ip);
        } catch (guardError) {
          outcome = guardError;
        }
      }
      const failure = oauthFailure(outcome, req);
      if (!failure) return next(outcome);
      log.info(
        { error: failure.error, internal: outcome instanceof Error ? outcome.message : undefined },
        'token refused',
      );
      fail(failure);
    }
  };
}
