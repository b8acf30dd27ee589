import { randomUUID } from 'node:crypto';
import type { Introspection } from '@spam-check/contracts';
import type { AuthStore, IssuedTokens, RevocationMessage } from '../data-access/store';
import { refreshedScope } from './scopes';
import { generateToken, hashToken, nowSeconds, type TokenRecord } from './tokens';

export interface Lifetimes {
  accessSeconds: number;
  refreshSeconds: number;
}

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  access: TokenRecord;
  refresh: TokenRecord;
}

export type RefreshOutcome =
  | { ok: true; tokens: TokenPair }
  | { ok: false; reason: 'unknown' | 'other_client' | 'user_removed' | 'reused' | 'wider_scope' };

/** Issue, rotation, introspection and revocation of tokens; the only code that sees tokens in clear. */
export function createTokenService(store: AuthStore, lifetimes: Lifetimes) {
  const mint = (
    clientId: string,
    username: string,
    scope: string[],
    family: string,
    accessToken = generateToken(),
    refreshToken = generateToken(),
  ) => {
    const iat = nowSeconds();
    const base = { clientId, username, scope, iat, family };
    const access = { ...base, exp: iat + lifetimes.accessSeconds };
    const refresh = { ...base, exp: iat + lifetimes.refreshSeconds };
    const issued: IssuedTokens = {
      accessHash: hashToken(accessToken),
      access,
      refreshHash: hashToken(refreshToken),
      refresh: { ...refresh, spent: false },
    };
    return { tokens: { accessToken, refreshToken, access, refresh }, issued };
  };

  const announce = async (hashes: string[], reason: RevocationMessage['reason']) => {
    await store.publishRevocation({
      type: 'revocation',
      reason,
      access_token_sha256: hashes,
      revoked_at: nowSeconds(),
    });
  };

  const revokeFamily = async (family: string, reason: RevocationMessage['reason']) => {
    await announce(await store.revokeFamily(family), reason);
  };

  return {
    /** Password grant: the first tokens of a new family (the token strings may come from the caller). */
    async issue(
      clientId: string,
      username: string,
      scope: string[],
      preset?: { accessToken: string; refreshToken: string },
    ): Promise<TokenPair> {
      const { tokens, issued } = mint(
        clientId,
        username,
        scope,
        randomUUID(),
        preset?.accessToken,
        preset?.refreshToken,
      );
      await store.saveTokens(issued);
      return tokens;
    },

    /**
     * Refresh grant with rotation (RFC 9700 §4.14.2). Every check that can fail runs before the token is
     * consumed, so a failed refresh leaves it usable; presenting a spent token revokes its whole family.
     */
    async refresh(
      refreshToken: string,
      clientId: string,
      requestedScope: string[] | undefined,
      userExists: (username: string) => Promise<boolean>,
    ): Promise<RefreshOutcome> {
      const hash = hashToken(refreshToken);
      const record = await store.getRefreshToken(hash);
      if (!record) return { ok: false, reason: 'unknown' };
      if (record.clientId !== clientId) return { ok: false, reason: 'other_client' };
      if (record.spent) {
        await revokeFamily(record.family, 'refresh_token_reuse');
        return { ok: false, reason: 'reused' };
      }
      const scope = refreshedScope(requestedScope, record.scope);
      if (!scope) return { ok: false, reason: 'wider_scope' };
      if (!(await userExists(record.username))) return { ok: false, reason: 'user_removed' };
      const { tokens, issued } = mint(clientId, record.username, scope, record.family);
      const result = await store.rotateRefreshToken(hash, issued);
      switch (result.outcome) {
        case 'rotated':
          return { ok: true, tokens };
        case 'reused':
          await announce(result.revokedAccessHashes, 'refresh_token_reuse');
          return { ok: false, reason: 'reused' };
        case 'unknown':
          return { ok: false, reason: 'unknown' };
      }
    },

    /** RFC 7662 for the gateway: only live access tokens are active (a refresh token is never a bearer). */
    async introspect(token: string): Promise<Introspection> {
      const record = await store.getAccessToken(hashToken(token));
      if (!record || record.exp <= nowSeconds()) return { active: false };
      return {
        active: true,
        scope: record.scope.join(' '),
        client_id: record.clientId,
        username: record.username,
        token_type: 'Bearer',
        exp: record.exp,
        iat: record.iat,
      };
    },

    /**
     * RFC 7009: revokes an access token, or a refresh token with its family, if it belongs to `clientId`.
     * Unknown tokens and other clients' tokens are left alone without saying so (the answer is 200 anyway).
     */
    async revoke(token: string, clientId: string, hint: string | undefined): Promise<void> {
      const hash = hashToken(token);
      const lookups =
        hint === 'refresh_token' ? (['refresh', 'access'] as const) : (['access', 'refresh'] as const);
      for (const kind of lookups) {
        if (kind === 'access') {
          const record = await store.getAccessToken(hash);
          if (!record) continue;
          if (record.clientId === clientId && (await store.revokeAccessToken(hash)))
            await announce([hash], 'revoked');
          return;
        }
        const record = await store.getRefreshToken(hash);
        if (!record) continue;
        if (record.clientId === clientId) await revokeFamily(record.family, 'revoked');
        return;
      }
    },
  };
}
export type TokenService = ReturnType<typeof createTokenService>;
