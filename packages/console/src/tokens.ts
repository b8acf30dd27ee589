import { apiRequest, basicAuthorization, type Answer } from '@spam-check/client';
import { ADMIN_SCOPE } from '@spam-check/contracts';
import { AppError } from '@spam-check/service-kit';

export interface ConsoleTokens {
  accessToken: string;
  refreshToken: string | undefined;
  expiresInSeconds: number;
}

/** What the console tells about the browser on each token call: its address counts failed sign-ins. */
export interface TokenCallMeta {
  /** The API's public base URL: its `/oauth/token` and `/oauth/revoke`. */
  baseUrl: string;
  requestId: string;
  language: string;
  clientAddress: string;
}

/** A sign-in auth refused: wrong name or password, no `spam:admin` (`refused`), or too many failures. */
export class SignInRefused extends Error {
  constructor(readonly reason: 'refused' | 'throttled') {
    super(`sign-in ${reason}`);
    this.name = 'SignInRefused';
  }
}

export interface ConsoleTokenClient {
  signIn(username: string, password: string, meta: TokenCallMeta): Promise<ConsoleTokens>;
  /** Undefined when auth no longer accepts the refresh token (revoked, expired, used): the session ends. */
  refresh(refreshToken: string, meta: TokenCallMeta): Promise<ConsoleTokens | undefined>;
  revoke(token: string, meta: TokenCallMeta): Promise<void>;
}

export interface TokenClientOptions {
  timeoutMs: number;
  client: { id: string; secret: string };
}

const errorOf = (answer: Answer): string | undefined =>
  (answer.body as { error?: unknown } | undefined)?.error as string | undefined;

function tokensOf(answer: Answer): ConsoleTokens {
  const body = (answer.body ?? {}) as {
    access_token?: unknown;
    refresh_token?: unknown;
    expires_in?: unknown;
  };
  if (typeof body.access_token !== 'string' || typeof body.expires_in !== 'number')
    throw new AppError('SERVICE_UNAVAILABLE', { internal: 'token answer without access_token' });
  return {
    accessToken: body.access_token,
    refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : undefined,
    expiresInSeconds: body.expires_in,
  };
}

const unavailable = (answer: Answer, what: string) =>
  new AppError('SERVICE_UNAVAILABLE', { internal: `${what}: answered ${answer.status} ${errorOf(answer)}` });

/**
 * The console's own OAuth client at the API's token endpoint (RFC 6749 password and refresh_token grants,
 * RFC 7009 revocation). The browser's address goes in X-Forwarded-For: the gateway passes it on to auth
 * for calls authenticated as the console's client (see the gateway README), so auth's per-IP and per-user
 * sign-in limits apply to the console as they do to /oauth/token. No answer, a 5xx, or the console's own
 * credentials refused: 503.
 */
export function consoleTokenClient(options: TokenClientOptions): ConsoleTokenClient {
  const authorization = basicAuthorization({
    clientId: options.client.id,
    clientSecret: options.client.secret,
  });
  const post = (endpoint: 'token' | 'revoke', form: Record<string, string>, meta: TokenCallMeta) =>
    apiRequest(new URL(`/oauth/${endpoint}`, meta.baseUrl).toString(), {
      method: 'POST',
      timeoutMs: options.timeoutMs,
      requestId: meta.requestId,
      headers: {
        Authorization: authorization,
        'Accept-Language': meta.language,
        'X-Forwarded-For': meta.clientAddress,
      },
      body: new URLSearchParams(form),
    }).catch((error: unknown) => {
      throw new AppError('SERVICE_UNAVAILABLE', { cause: error, internal: 'token endpoint unreachable' });
    });

  return {
    async signIn(username, password, meta) {
      const form = { grant_type: 'password', username, password, scope: ADMIN_SCOPE };
      const answer = await post('token', form, meta);
      if (answer.status === 200) return tokensOf(answer);
      if (answer.status === 429) throw new SignInRefused('throttled');
      const error = errorOf(answer);
      if (answer.status === 400 && (error === 'invalid_grant' || error === 'invalid_scope'))
        throw new SignInRefused('refused');
      throw unavailable(answer, 'console sign-in');
    },
    async refresh(refreshToken, meta) {
      const answer = await post('token', { grant_type: 'refresh_token', refresh_token: refreshToken }, meta);
      if (answer.status === 200) return tokensOf(answer);
      if (answer.status === 400 && errorOf(answer) === 'invalid_grant') return undefined;
      throw unavailable(answer, 'console token refresh');
    },
    async revoke(token, meta) {
      const answer = await post('revoke', { token }, meta);
      if (answer.status !== 200) throw unavailable(answer, 'console token revocation');
    },
  };
}
