import ExpressOAuthServer from '@node-oauth/express-oauth-server';
import {
  AbstractGrantType,
  InvalidGrantError,
  InvalidRequestError,
  InvalidScopeError,
  type Client,
  type Request,
  type Token,
  type User,
} from '@node-oauth/oauth2-server';
import type { AuthStore, ClientRecord } from '../../data-access/store';
import type { ClientAuthenticator } from '../../domain/client-authenticator';
import { grantedScope } from '../../domain/scopes';
import type { SecretHasher } from '../../domain/secrets';
import type { Lifetimes, TokenPair, TokenService } from '../../domain/token-service';
import { generateToken } from '../../domain/tokens';

export interface OAuthServerDeps {
  store: AuthStore;
  hasher: SecretHasher;
  clients: ClientAuthenticator;
  tokens: TokenService;
  lifetimes: Lifetimes;
}

function toLibraryToken(pair: TokenPair, client: Client, user: User): Token {
  return {
    accessToken: pair.accessToken,
    accessTokenExpiresAt: new Date(pair.access.exp * 1000),
    refreshToken: pair.refreshToken,
    refreshTokenExpiresAt: new Date(pair.refresh.exp * 1000),
    scope: pair.access.scope,
    client,
    user,
  };
}

/**
 * Replaces the library's refresh_token grant. The library revokes the presented refresh token before it
 * checks the requested scope and then saves the successor in a separate step: a failed refresh would consume
 * the token, and two concurrent refreshes could both succeed. Ours checks everything first and rotates in
 * one atomic store operation, with reuse detection (RFC 9700 §4.14.2).
 */
function rotatingRefreshGrant(deps: OAuthServerDeps): typeof AbstractGrantType {
  return class RotatingRefreshTokenGrant extends AbstractGrantType {
    async handle(request: Request, client: Client): Promise<Token> {
      const presented = (request.body as Record<string, unknown> | undefined)?.refresh_token;
      if (!presented) throw new InvalidRequestError('Missing parameter: `refresh_token`');
      if (typeof presented !== 'string') throw new InvalidRequestError('Invalid parameter: `refresh_token`');
      const requested = this.getScope(request) as string[] | undefined;
      const outcome = await deps.tokens.refresh(
        presented,
        client.id,
        requested,
        async (username) => (await deps.store.getUser(username)) !== undefined,
      );
      if (outcome.ok)
        return toLibraryToken(outcome.tokens, client, { username: outcome.tokens.access.username });
      switch (outcome.reason) {
        case 'wider_scope':
          throw new InvalidScopeError('Invalid scope: a refresh cannot add scopes');
        case 'reused':
          throw new InvalidGrantError('Invalid grant: refresh token reused; family revoked', {
            description: 'refresh_reused',
          });
        case 'unknown':
        case 'other_client':
        case 'user_removed':
          throw new InvalidGrantError(`Invalid grant: refresh token rejected (${outcome.reason})`);
      }
    }
  };
}

/** The library's model over our store; only the password grant and client authentication go through it. */
export function createOAuthServer(deps: OAuthServerDeps): ExpressOAuthServer {
  const model = {
    async getClient(clientId: string, clientSecret: string): Promise<Client | false> {
      const client = await deps.clients.authenticate(clientId, clientSecret);
      return client ? { id: client.id, grants: [...client.grants], scopes: [...client.scopes] } : false;
    },
    async getUser(username: string, password: string): Promise<User | false> {
      const user = await deps.store.getUser(username);
      if (!user) return deps.hasher.verifyNothing(password);
      return (await deps.hasher.verify(password, user.passwordHash)) ? { username } : false;
    },
    async validateScope(_user: User, client: Client, scope?: string[]): Promise<string[] | false> {
      return grantedScope(scope, (client as unknown as ClientRecord).scopes) ?? false;
    },
    generateAccessToken: async () => generateToken(),
    generateRefreshToken: async () => generateToken(),
    async saveToken(token: Token, client: Client, user: User): Promise<Token> {
      const pair = await deps.tokens.issue(
        client.id,
        (user as { username: string }).username,
        token.scope ?? [],
        {
          accessToken: token.accessToken,
          refreshToken: token.refreshToken ?? generateToken(),
        },
      );
      return toLibraryToken(pair, client, user);
    },
    // Bearer validation is the gateway's job, through introspection; the library's authenticate() is unused.
    getAccessToken: async () => false as const,
  };
  return new ExpressOAuthServer({
    model,
    accessTokenLifetime: deps.lifetimes.accessSeconds,
    refreshTokenLifetime: deps.lifetimes.refreshSeconds,
    requireClientAuthentication: { password: true, refresh_token: true },
    extendedGrantTypes: { refresh_token: rotatingRefreshGrant(deps) },
  });
}
