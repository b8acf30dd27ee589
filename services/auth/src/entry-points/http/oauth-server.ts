import ExpressOAuthServer from '@node-oauth/express-oauth-server';
import {
  Request as OAuthRequest,
  Response as OAuthResponse,
  type Client,
  type Token,
  type TokenOptions,
  type User,
} from '@node-oauth/oauth2-server';
import type { Request, Response } from 'express';
import type { AuthStore, ClientRecord } from '../../domain/store';
import { grantedScope, userClientScopes } from '../../domain/scopes';
import type { SecretHasher } from '../../domain/secrets';
import type { IssuedPair, Lifetimes, TokenService } from '../../domain/token-service';

export interface PasswordGrantDeps {
  store: AuthStore;
  hasher: SecretHasher;
  tokens: TokenService;
  lifetimes: Lifetimes;
}

/** What the library's token handler resolves with; our pair travels in `issued`. */
type IssuedToken = Token & { issued: IssuedPair };

/** The client the token endpoint authenticated, as handed to the library with its scopes. */
type AuthenticatedClient = Client & { scopes: string[] };

/**
 * The password grant, run by the library (`@node-oauth/express-oauth-server`) with our model. The client has
 * already been authenticated by the token endpoint (one credential decoder, one brute-force guard), so the
 * library is told that the grant needs no client authentication and is handed that client for this
 * request; the refresh_token grant is ours (`tokens.refresh`), since it must rotate atomically and see the
 * connection.
 */
export function createPasswordGrant(deps: PasswordGrantDeps) {
  const model = {
    async getUser(username: string, password: string): Promise<User | false> {
      const user = await deps.store.getUser(username);
      if (!user) return deps.hasher.verifyNothing(password);
      return (await deps.hasher.verify(password, user.passwordHash))
        ? { username, scopes: user.scopes }
        : false;
    },
    async validateScope(
      user: User,
      client: AuthenticatedClient,
      scope?: string[],
    ): Promise<string[] | false> {
      const allowed = userClientScopes(client.scopes, (user as { scopes?: string[] }).scopes);
      return grantedScope(scope, allowed) ?? false;
    },
    async saveToken(_token: Token, client: Client, user: User): Promise<IssuedToken> {
      const issued = await deps.tokens.issue(
        client.id,
        (user as { username: string }).username,
        _token.scope ?? [],
        (client.grants as string[]).includes('refresh_token'),
      );
      return { accessToken: issued.accessToken, client, user, issued };
    },
    // Bearer validation is the gateway's job, through introspection; the library's authenticate() is unused.
    getAccessToken: async () => false as const,
  };
  const server = new ExpressOAuthServer({
    model: { ...model, getClient: async () => false as const },
    accessTokenLifetime: deps.lifetimes.accessSeconds,
    refreshTokenLifetime: deps.lifetimes.refreshSeconds,
    requireClientAuthentication: { password: false },
  }).server;

  return async (req: Request, res: Response, client: ClientRecord): Promise<IssuedPair> => {
    const authenticated: AuthenticatedClient = {
      id: client.id,
      grants: [...client.grants],
      scopes: [...client.scopes],
    };
    const { authorization: _authorization, ...headers } = req.headers;
    const { client_secret: _secret, ...body } = req.body as Record<string, unknown>;
    const request = new OAuthRequest({
      method: req.method,
      query: {},
      headers: headers as Record<string, string>,
      body: { ...body, client_id: client.id },
    });
    // token()'s options override the server's for this call (the library merges them), the model included.
    const options = { model: { ...model, getClient: async () => authenticated } };
    const token = (await server.token(
      request,
      new OAuthResponse(res),
      options as TokenOptions,
    )) as IssuedToken;
    return token.issued;
  };
}
export type PasswordGrant = ReturnType<typeof createPasswordGrant>;
