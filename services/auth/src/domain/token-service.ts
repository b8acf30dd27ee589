import { randomUUID } from 'node:crypto';
import type { Introspection, RevocationMessage } from '@spam-check/contracts';
import type { AuthStore, RotatedTokens } from './store';
import { refreshedScope } from './scopes';
import { generateToken, hashToken, nowSeconds, type TokenRecord } from './tokens';

export interface Lifetimes {
  accessSeconds: number;
  refreshSeconds: number;
}

export interface IssuedPair {
  accessToken: string;
  access: TokenRecord;
  /** Absent when the client may not use the refresh_token grant. */
  refreshToken?: string;
}

/** A refresh's answer, with what is needed to undo it if the answer never reaches the client. */
export interface RotatedPair extends IssuedPair {
  refreshToken: string;
  undo: () => Promise<boolean>;
}

export type RefreshOutcome =
  | { ok: true; tokens: RotatedPair }
  | {
      ok: false;
      /** `abandoned`: the caller went away before anything was consumed; nobody is left to answer. */
      reason: 'unknown' | 'other_client' | 'user_removed' | 'reused' | 'wider_scope' | 'abandoned';
    };

async function announceRevocation(
  store: AuthStore,
  hashes: string[],
  reason: RevocationMessage['reason'],
): Promise<void> {
  await store.publishRevocation({
    type: 'revocation',
    reason,
    access_token_sha256: hashes,
    revoked_at: nowSeconds(),
  });
}

/** Deletes a family (one login's tokens, refreshes included) and announces its access tokens. */
async function revokeFamily(store: AuthStore, family: string, reason: RevocationMessage['reason']) {
  await announceRevocation(store, await store.revokeFamily(family), reason);
}

/** Deletes every token of a client and announces the access tokens (the gateway drops its cache entries). */
export async function revokeClientTokens(store: AuthStore, clientId: string): Promise<void> {
  const hashes = await store.revokeClientTokens(clientId);
  if (hashes.length > 0) await announceRevocation(store, hashes, 'revoked');
}

type Minted = { accessToken: string; access: TokenRecord };

function mint(
  lifetimes: Lifetimes,
  clientId: string,
  username: string | undefined,
  scope: string[],
  family: string,
): Minted {
  const iat = nowSeconds();
  const access: TokenRecord = {
    clientId,
    ...(username === undefined ? {} : { username }),
    scope,
    iat,
    family,
    exp: iat + lifetimes.accessSeconds,
  };
  return { accessToken: generateToken(), access };
}

/** A refresh token of the same family for `pair`, and the records to store for both. */
function withRefresh(lifetimes: Lifetimes, pair: Minted) {
  const refreshToken = generateToken();
  const refresh = { ...pair.access, exp: pair.access.iat + lifetimes.refreshSeconds, spent: false };
  const issued: RotatedTokens = {
    accessHash: hashToken(pair.accessToken),
    access: pair.access,
    refresh: { hash: hashToken(refreshToken), record: refresh },
  };
  return { refreshToken, issued };
}

/** RFC 7662's answer for a stored access token: active only while it lives. */
function introspectionOf(record: TokenRecord | undefined): Introspection {
  if (!record || record.exp <= nowSeconds()) return { active: false };
  return {
    active: true,
    scope: record.scope.join(' '),
    client_id: record.clientId,
    ...(record.username === undefined ? {} : { username: record.username }),
    token_type: 'Bearer',
    exp: record.exp,
    iat: record.iat,
  };
}

/**
 * RFC 7009: revokes an access token, or a refresh token with its family, if it belongs to `clientId`.
 * Unknown tokens and other clients' tokens are left alone without saying so (the answer is 200 anyway).
 */
async function revokeToken(
  store: AuthStore,
  token: string,
  clientId: string,
  hint: string | undefined,
): Promise<void> {
  const hash = hashToken(token);
  const lookups =
    hint === 'refresh_token' ? (['refresh', 'access'] as const) : (['access', 'refresh'] as const);
  for (const kind of lookups) {
    if (kind === 'access') {
      const record = await store.getAccessToken(hash);
      if (!record) continue;
      if (record.clientId === clientId && (await store.revokeAccessToken(hash)))
        await announceRevocation(store, [hash], 'revoked');
      return;
    }
    const record = await store.getRefreshToken(hash);
    if (!record) continue;
    if (record.clientId === clientId) await revokeFamily(store, record.family, 'revoked');
    return;
  }
}

/** Issue, rotation, introspection and revocation of tokens; the only code that sees tokens in clear. */
export function createTokenService(store: AuthStore, lifetimes: Lifetimes) {
  return {
    /**
     * Password grant (with a username) or client_credentials grant (without): the first tokens of a new
     * family; a refresh token only when `withRefreshToken` (the client may use the refresh_token grant).
     */
    async issue(
      clientId: string,
      username: string | undefined,
      scope: string[],
      withRefreshToken: boolean,
    ): Promise<IssuedPair> {
      const pair = mint(lifetimes, clientId, username, scope, randomUUID());
      if (!withRefreshToken) {
        await store.saveTokens({ accessHash: hashToken(pair.accessToken), access: pair.access });
        return pair;
      }
      const { refreshToken, issued } = withRefresh(lifetimes, pair);
      await store.saveTokens(issued);
      return { ...pair, refreshToken };
    },

    /**
     * Refresh grant with rotation (RFC 9700 §4.14.2). Every check that can fail runs before the token is
     * consumed, so a failed refresh leaves it usable; presenting a spent token revokes its whole family.
     * When `signal` is aborted (the client went away) nothing is consumed; the answer carries `undo` for
     * when it cannot be delivered after all (see the README, "Refresh rotation and lost answers").
     */
    async refresh(
      refreshToken: string,
      clientId: string,
      requestedScope: string[] | undefined,
      userExists: (username: string) => Promise<boolean>,
      signal: AbortSignal,
    ): Promise<RefreshOutcome> {
      const hash = hashToken(refreshToken);
      const record = await store.getRefreshToken(hash);
      if (!record) return { ok: false, reason: 'unknown' };
      if (record.clientId !== clientId) return { ok: false, reason: 'other_client' };
      if (record.spent) {
        await revokeFamily(store, record.family, 'refresh_token_reuse');
        return { ok: false, reason: 'reused' };
      }
      const scope = refreshedScope(requestedScope, record.scope);
      if (!scope) return { ok: false, reason: 'wider_scope' };
      if (record.username === undefined || !(await userExists(record.username)))
        return { ok: false, reason: 'user_removed' };
      const pair = mint(lifetimes, clientId, record.username, scope, record.family);
      const { refreshToken: next, issued } = withRefresh(lifetimes, pair);
      if (signal.aborted) return { ok: false, reason: 'abandoned' };
      const result = await store.rotateRefreshToken(hash, issued);
      switch (result.outcome) {
        case 'rotated':
          return {
            ok: true,
            tokens: { ...pair, refreshToken: next, undo: () => store.undoRotation(hash, issued) },
          };
        case 'reused':
          await announceRevocation(store, result.revokedAccessHashes, 'refresh_token_reuse');
          return { ok: false, reason: 'reused' };
        case 'unknown':
          return { ok: false, reason: 'unknown' };
      }
    },

    /**
     * RFC 7662 for the gateway: only live access tokens of existing clients are active (a refresh token is
     * never a bearer).
     */
    async introspect(token: string): Promise<Introspection> {
      return introspectionOf(await store.getActiveAccessToken(hashToken(token)));
    },

    revoke: (token: string, clientId: string, hint: string | undefined) =>
      revokeToken(store, token, clientId, hint),
  };
}
export type TokenService = ReturnType<typeof createTokenService>;
