import { ADMIN_SCOPE } from '@spam-check/contracts';
import { AppError } from '@spam-check/service-kit';
import { httpPost, type HttpAnswer, type Upstream } from './http-post';

export interface ConsoleTokens {
  accessToken: string;
  refreshToken: string | undefined;
  expiresInSeconds: number;
}

/** What the console tells about the browser on each call to auth: its address counts failed sign-ins. */
export interface TokenCallMeta {
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

/**
 * The console's own OAuth client at the auth service (RFC 6749 password and refresh_token grants, RFC 7009
 * revocation), called directly as the token endpoint proxy would: the browser's address goes in
 * X-Forwarded-For (auth trusts one hop, the gateway), so auth's per-IP and per-user sign-in limits apply
 * to the console as they do to /oauth/token. Auth unreachable or answering 5xx, or refusing the console's
 * own credentials: 503.
 */
export function consoleTokenClient(options: {
  authUrl: string;
  agent: Upstream;
  timeoutMs: number;
  client: { id: string; secret: string };
}): ConsoleTokenClient {
  const basic = `Basic ${Buffer.from(
    `${encodeURIComponent(options.client.id)}:${encodeURIComponent(options.client.secret)}`,
  ).toString('base64')}`;
  const post = (path: string, form: Record<string, string>, meta: TokenCallMeta): Promise<HttpAnswer> =>
    httpPost(new URL(path, options.authUrl), {
      agent: options.agent,
      timeoutMs: options.timeoutMs,
      headers: {
        Authorization: basic,
        'Content-Type': 'application/x-www-form-urlencoded',
        Accept: 'application/json',
        'X-Request-Id': meta.requestId,
        'Accept-Language': meta.language,
        'X-Forwarded-For': meta.clientAddress,
      },
      body: new URLSearchParams(form).toString(),
    }).catch((error: unknown) => {
      throw new AppError('SERVICE_UNAVAILABLE', { cause: error, internal: 'auth service unreachable' });
    });
  const errorOf = (answer: HttpAnswer): string | undefined => {
    try {
      return (JSON.parse(answer.body.toString('utf8')) as { error?: string }).error;
    } catch {
      return undefined;
    }
  };
  const tokensOf = (answer: HttpAnswer): ConsoleTokens => {
    const body = JSON.parse(answer.body.toString('utf8')) as {
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
  };
  const unavailable = (answer: HttpAnswer, what: string) =>
    new AppError('SERVICE_UNAVAILABLE', {
      internal: `${what}: auth answered ${answer.status} ${errorOf(answer)}`,
    });

  return {
    async signIn(username, password, meta) {
      const answer = await post(
        '/oauth/token',
        { grant_type: 'password', username, password, scope: ADMIN_SCOPE },
        meta,
      );
      if (answer.status === 200) return tokensOf(answer);
      if (answer.status === 429) throw new SignInRefused('throttled');
      const error = errorOf(answer);
      if (answer.status === 400 && (error === 'invalid_grant' || error === 'invalid_scope'))
        throw new SignInRefused('refused');
      throw unavailable(answer, 'console sign-in');
    },
    async refresh(refreshToken, meta) {
      const answer = await post(
        '/oauth/token',
        { grant_type: 'refresh_token', refresh_token: refreshToken },
        meta,
      );
      if (answer.status === 200) return tokensOf(answer);
      if (answer.status === 400 && errorOf(answer) === 'invalid_grant') return undefined;
      throw unavailable(answer, 'console token refresh');
    },
    async revoke(token, meta) {
      const answer = await post('/oauth/revoke', { token }, meta);
      if (answer.status !== 200) throw unavailable(answer, 'console token revocation');
    },
  };
}
