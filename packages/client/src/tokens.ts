import type { TokenResponse } from '@spam-check/contracts';
import { SpamCheckError, isSpamCheckError } from './errors';
import { answerError, type Answer, type CallOptions } from './http';

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

export interface UserCredentials {
  username: string;
  password: string;
}

/** The tokens of a session, as kept between runs (see `onTokens`). Times in milliseconds since the epoch. */
export interface StoredTokens {
  access_token: string;
  refresh_token?: string;
  scope: string;
  expires_at: number;
  /** When the client refreshes, ahead of `expires_at`. */
  refresh_at: number;
}

/** The client refreshes a token this long before it expires (at most half its lifetime). */
export const REFRESH_MARGIN_MS = 60_000;

function storedTokens(response: TokenResponse, now = Date.now()): StoredTokens {
  const lifetime = response.expires_in * 1000;
  return {
    access_token: response.access_token,
    ...(response.refresh_token ? { refresh_token: response.refresh_token } : {}),
    scope: response.scope,
    expires_at: now + lifetime,
    refresh_at: now + lifetime - Math.min(REFRESH_MARGIN_MS, lifetime / 2),
  };
}

export interface TokenSessionOptions {
  client: ClientCredentials;
  user?: UserCredentials;
  /**
   * `client_credentials`: the client signs in as itself (no user, no refresh token; docs/design.md, Tokens).
   */
  grant?: 'password' | 'client_credentials';
  tokens?: StoredTokens;
  /** Called with every new pair of tokens (rotation included), e.g. to keep them for the next run. */
  onTokens?: (tokens: StoredTokens) => void | Promise<void>;
  /** Sends a form to an OAuth endpoint (`token` or `revoke`), with the client's retries and deadline. */
  post: (endpoint: 'token' | 'revoke', form: URLSearchParams, options: CallOptions) => Promise<Answer>;
}

/** RFC 6749 §2.3.1: client id and secret are form-encoded, then joined for HTTP Basic. */
export function basicAuthorization({ clientId, clientSecret }: ClientCredentials): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
  const pair = `${encode(clientId)}:${encode(clientSecret)}`;
  return `Basic ${btoa(pair)}`;
}

/**
 * Access tokens for the calls: the password grant to sign in, the refresh_token grant before the access
 * token expires; or, for a server acting as itself, a new client_credentials grant when it is due. The rules:
 * - one renewal at a time: however many calls find the token due, they all wait for the same one;
 * - refresh tokens rotate (docs/design.md, Tokens): the new one replaces the old at once, and `onTokens`
 *   hears of it;
 * - a refresh answered `invalid_grant` (used, expired or revoked family) signs in again with the password
 *   when the session has one, else fails with SIGN_IN_REQUIRED;
 * - a token the API calls invalid (revoked) is dropped, and the next call renews.
 */
export class TokenSession {
  private tokens: StoredTokens | undefined;
  private renewal: Promise<StoredTokens> | undefined;

  constructor(private readonly options: TokenSessionOptions) {
    this.tokens = options.tokens;
  }

  /** A usable access token, renewed first when it is due. */
  async accessToken(options: CallOptions = {}): Promise<string> {
    const tokens = this.tokens;
    if (tokens && Date.now() < tokens.refresh_at) return tokens.access_token;
    // Shared by every waiting call, so no one caller's signal may cancel it: it has its deadline only.
    this.renewal ??= this.renew(
      options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs },
    ).finally(() => {
      this.renewal = undefined;
    });
    return (await abortable(this.renewal, options.signal)).access_token;
  }

  /** Signs in now (the password or the client_credentials grant), replacing any tokens. */
  async signIn(options: CallOptions = {}): Promise<StoredTokens> {
    if (this.options.grant === 'client_credentials')
      return this.grant(new URLSearchParams({ grant_type: 'client_credentials' }), options);
    const user = this.options.user;
    if (!user)
      throw new SpamCheckError({
        message: 'no username and password to sign in with',
        status: 0,
        code: 'SIGN_IN_REQUIRED',
      });
    return this.grant(
      new URLSearchParams({ grant_type: 'password', username: user.username, password: user.password }),
      options,
    );
  }

  /** Forgets `accessToken` if it is still the current one, so the next call renews. */
  drop(accessToken: string): void {
    if (this.tokens?.access_token === accessToken) this.tokens = { ...this.tokens, refresh_at: 0 };
  }

  /** Revokes the session's refresh token (and with it every token of its family) and forgets the tokens. */
  async revoke(options: CallOptions = {}): Promise<void> {
    const token = this.tokens?.refresh_token ?? this.tokens?.access_token;
    this.tokens = undefined;
    if (!token) return;
    const answer = await this.options.post('revoke', new URLSearchParams({ token }), options);
    if (answer.status !== 200) throw answerError(answer, 'oauth/revoke');
  }

  current(): StoredTokens | undefined {
    return this.tokens;
  }

  private async renew(options: CallOptions): Promise<StoredTokens> {
    const refreshToken = this.tokens?.refresh_token;
    if (!refreshToken) return this.signIn(options);
    try {
      return await this.grant(
        new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }),
        options,
      );
    } catch (error) {
      if (isSpamCheckError(error) && error.code === 'invalid_grant') {
        this.tokens = undefined;
        return this.signIn(options);
      }
      throw error;
    }
  }

  private async grant(form: URLSearchParams, options: CallOptions): Promise<StoredTokens> {
    const answer = await this.options.post('token', form, options);
    if (answer.status !== 200) throw answerError(answer, 'oauth/token');
    const tokens = storedTokens(answer.body as TokenResponse);
    this.tokens = tokens;
    await this.options.onTokens?.(tokens);
    return tokens;
  }
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
