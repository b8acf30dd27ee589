import { OAuthError } from '@node-oauth/oauth2-server';
import type { OAuthErrorCode } from '@spam-check/contracts';
import { clientAddress, requestContext } from '@spam-check/service-kit';
import type { Request, RequestHandler, Response } from 'express';
import { StoreUnavailableError, type AuthStore, type ClientRecord } from '../../domain/store';
import { CLIENT_GRANTS } from '@spam-check/contracts';
import { clientOnlyScopes, grantedScope } from '../../domain/scopes';
import type { AttemptGuard } from '../../domain/attempt-guard';
import type { ClientAuthenticator } from '../../domain/client-authenticator';
import type { IssuedPair, Lifetimes, RotatedPair, TokenService } from '../../domain/token-service';
import { authenticateCaller, exchangeOf } from './client-auth';
import type { TokenMetrics } from './metrics';
import type { PasswordGrant } from './oauth-server';
import {
  DESCRIPTION_KEYS,
  sendOAuthError,
  tooManyAttempts,
  type DescriptionKey,
  type OAuthFailure,
} from './oauth-errors';

const RETRY_AFTER_UNAVAILABLE = '5';
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

function unavailable(): OAuthFailure {
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

/** Maps store outages and the library's errors to RFC 6749 §5.2 answers; undefined for a bug (the kit's 500). */
export function oauthFailure(error: unknown): OAuthFailure | undefined {
  if (storeFailure(error)) return unavailable();
  if (!(error instanceof OAuthError) || error.name === 'server_error') return undefined;
  const code = error.name as OAuthErrorCode;
  const description: DescriptionKey = (DESCRIPTION_KEYS as string[]).includes(code)
    ? code
    : 'invalid_request';
  // The library's messages for invalid_request name the parameter; they carry nothing secret.
  const detail = code === 'invalid_request' ? error.message : undefined;
  return { status: error.code, error: code, description, ...(detail ? { detail } : {}) };
}

const REFRESH_FAILURES = {
  wider_scope: { status: 400, error: 'invalid_scope', description: 'invalid_scope' },
  reused: { status: 400, error: 'invalid_grant', description: 'refresh_reused' },
  unknown: { status: 400, error: 'invalid_grant', description: 'invalid_grant' },
  other_client: { status: 400, error: 'invalid_grant', description: 'invalid_grant' },
  user_removed: { status: 400, error: 'invalid_grant', description: 'invalid_grant' },
} satisfies Record<string, OAuthFailure>;

function sendTokens(res: Response, pair: IssuedPair, lifetimes: Lifetimes): void {
  res
    .status(200)
    .set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' })
    .json({
      access_token: pair.accessToken,
      token_type: 'Bearer',
      expires_in: lifetimes.accessSeconds,
      ...(pair.refreshToken === undefined ? {} : { refresh_token: pair.refreshToken }),
      scope: pair.access.scope.join(' '),
    });
}

/** Aborted when the client's connection closes before our answer has been written out in full. */
function connectionSignal(res: Response): AbortSignal {
  const controller = new AbortController();
  if (res.destroyed) controller.abort();
  else
    res.once('close', () => {
      if (!res.writableFinished) controller.abort();
    });
  return controller.signal;
}

export interface TokenEndpointDeps {
  clients: ClientAuthenticator;
  guard: AttemptGuard;
  passwordGrant: PasswordGrant;
  tokens: TokenService;
  store: AuthStore;
  lifetimes: Lifetimes;
  metrics: TokenMetrics;
  /** Our proxies in front (the gateway): whose `X-Forwarded-For` entries name the client's address. */
  trustedProxyHops: number;
}

/**
 * Undoes the rotation if the answer cannot reach the client: at once when it has gone already (false: do not
 * answer), or when the connection closes before the answer is written out.
 */
function undoUnlessDelivered(
  tokens: RotatedPair,
  signal: AbortSignal,
  log: ReturnType<typeof requestContext>['log'],
): boolean {
  const undo = (why: string) => {
    tokens.undo().then(
      (undone) => log.warn({ undone }, `refresh answer not delivered (${why}): rotation undone`),
      (error: unknown) =>
        log.error({ err: error }, 'refresh answer not delivered; undoing the rotation failed'),
    );
  };
  if (signal.aborted) {
    undo('client gone before the answer');
    return false;
  }
  signal.addEventListener('abort', () => undo('connection closed while answering'));
  return true;
}

/** One grant type: answers with tokens or through `fail`; `signal` aborts when the client goes away. */
type Grant = (
  deps: TokenEndpointDeps,
  req: Request,
  res: Response,
  client: ClientRecord,
  fail: Fail,
  signal: AbortSignal,
) => Promise<void>;

function invalidRequest(detail: string): OAuthFailure {
  return { status: 400, error: 'invalid_request', description: 'invalid_request', detail };
}

/** The password grant: one reserved login attempt per username and IP, kept only when the password was wrong. */
const password: Grant = async (deps, req, res, client, fail) => {
  const body = req.body as Record<string, unknown>;
  const username = typeof body.username === 'string' && body.username !== '' ? body.username : undefined;
  const ip = clientAddress(req, deps.trustedProxyHops);
  const verdict = username === undefined ? undefined : await deps.guard.reserve({ username, ip });
  if (verdict && !verdict.allowed) {
    requestContext(res).log.warn({ ip }, 'login throttled');
    return fail(tooManyAttempts(verdict.retryAfterSeconds));
  }
  let pair: IssuedPair;
  try {
    pair = await deps.passwordGrant(req, res, client);
  } catch (error) {
    const wrongPassword = error instanceof OAuthError && error.name === 'invalid_grant';
    if (verdict && !wrongPassword) await verdict.attempt.release().catch(() => undefined);
    throw error;
  }
  await verdict?.attempt.succeeded();
  deps.metrics.issued.inc({ grant: 'password' });
  sendTokens(res, pair, deps.lifetimes);
};

/** RFC 6749 §4.4: the client acts as itself; no user, no refresh token, never `spam:admin` (§7.2). */
const clientCredentials: Grant = async (deps, req, res, client, fail) => {
  const body = req.body as Record<string, unknown>;
  const requested = typeof body.scope === 'string' ? body.scope.split(' ').filter(Boolean) : undefined;
  const scope = requested?.some((token) => !SCOPE_TOKEN.test(token))
    ? undefined
    : grantedScope(requested, clientOnlyScopes(client.scopes));
  if (!scope) return fail({ status: 400, error: 'invalid_scope', description: 'invalid_scope' });
  const pair = await deps.tokens.issue(client.id, undefined, scope, false);
  deps.metrics.issued.inc({ grant: 'client_credentials' });
  sendTokens(res, pair, deps.lifetimes);
};

/** The refresh grant: rotates while the client is still connected; a refused refresh consumes nothing. */
const refresh: Grant = async (deps, req, res, client, fail, signal) => {
  const { log } = requestContext(res);
  const body = req.body as Record<string, unknown>;
  const presented = body.refresh_token;
  if (typeof presented !== 'string' || presented === '') return fail(invalidRequest('refresh_token'));
  const scope = typeof body.scope === 'string' ? body.scope.split(' ').filter(Boolean) : undefined;
  if (scope?.some((token) => !SCOPE_TOKEN.test(token)))
    return fail({ status: 400, error: 'invalid_scope', description: 'invalid_scope' });
  const outcome = await deps.tokens.refresh(
    presented,
    client.id,
    scope,
    async (username) => (await deps.store.getUser(username)) !== undefined,
    signal,
  );
  if (!outcome.ok) {
    if (outcome.reason === 'abandoned') {
      log.warn('refresh abandoned: the client went away before the token was consumed');
      return;
    }
    log.info({ reason: outcome.reason }, 'refresh refused');
    return fail(REFRESH_FAILURES[outcome.reason]);
  }
  if (!undoUnlessDelivered(outcome.tokens, signal, log)) return;
  deps.metrics.issued.inc({ grant: 'refresh_token' });
  sendTokens(res, outcome.tokens, deps.lifetimes);
};

type ClientGrant = (typeof CLIENT_GRANTS)[number];
const GRANTS: Record<ClientGrant, Grant> = {
  password,
  client_credentials: clientCredentials,
  refresh_token: refresh,
};

/**
 * POST /oauth/token. Rules, in order: the grant type is one we offer; the client authenticates by exactly
 * one method, within the attempt limits (429 before any scrypt); it is registered for the grant. The password
 * grant reserves a login attempt per username and IP before the library checks the password. The refresh
 * grant rotates only while the client is still connected, and undoes the rotation when the answer could not
 * be written (a failed refresh never consumes the refresh token).
 */
export function tokenEndpoint(deps: TokenEndpointDeps): RequestHandler {
  const { metrics } = deps;

  return async (req, res, next) => {
    const { language, log } = requestContext(res);
    const signal = connectionSignal(res);
    const fail: Fail = (failure) => {
      metrics.errors.inc({ error: failure.error });
      sendOAuthError(res, failure, language);
    };
    const grant = (req.body as Record<string, unknown>).grant_type;
    try {
      if (typeof grant !== 'string' || grant === '') return fail(invalidRequest('grant_type'));
      // The library knows more grants (authorization_code) than this server offers.
      if (!(CLIENT_GRANTS as readonly string[]).includes(grant))
        return fail({ status: 400, error: 'unsupported_grant_type', description: 'unsupported_grant_type' });
      const client = await authenticateCaller(exchangeOf(req, res), deps, false);
      if (!client) return;
      if (!client.grants.includes(grant))
        return fail({ status: 400, error: 'unauthorized_client', description: 'unauthorized_client' });
      await GRANTS[grant as ClientGrant](deps, req, res, client, fail, signal);
    } catch (error) {
      const failure = oauthFailure(error);
      if (!failure) return next(error);
      log.info(
        { error: failure.error, internal: error instanceof Error ? error.message : undefined },
        'token refused',
      );
      fail(failure);
    }
  };
}

type Fail = (failure: OAuthFailure) => void;
