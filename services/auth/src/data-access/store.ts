import type { RefreshTokenRecord, TokenRecord } from '../domain/tokens';

export interface ClientRecord {
  id: string;
  secretHash: string;
  /** Grant types this client may use (`password`, `refresh_token`); empty for an introspection-only client. */
  grants: string[];
  /** Scopes this client may obtain; `auth:introspect` allows calling the introspection endpoint. */
  scopes: string[];
}

export interface UserRecord {
  username: string;
  passwordHash: string;
}

/** One access and one refresh token, by hash, ready to be stored. */
export interface IssuedTokens {
  accessHash: string;
  access: TokenRecord;
  refreshHash: string;
  refresh: RefreshTokenRecord;
}

export type RotationResult =
  { outcome: 'rotated' } | { outcome: 'reused'; revokedAccessHashes: string[] } | { outcome: 'unknown' };

export interface FailureCount {
  count: number;
  /** Seconds until the counter resets (0 when there is none). */
  resetsInSeconds: number;
}

/** What a revocation announces on the pub/sub channel (see README "Revocation messages"). */
export interface RevocationMessage {
  type: 'revocation';
  reason: 'revoked' | 'refresh_token_reuse';
  access_token_sha256: string[];
  revoked_at: number;
}

/**
 * Persistence of the auth service. Two implementations pass the same contract tests: Redis (production) and
 * memory (embedded mode). Tokens are only ever handled by hash here.
 */
export interface AuthStore {
  readonly kind: 'redis' | 'memory';
  getClient(id: string): Promise<ClientRecord | undefined>;
  saveClient(client: ClientRecord): Promise<void>;
  deleteClient(id: string): Promise<boolean>;
  listClients(): Promise<ClientRecord[]>;
  getUser(username: string): Promise<UserRecord | undefined>;
  saveUser(user: UserRecord): Promise<void>;
  deleteUser(username: string): Promise<boolean>;
  listUsers(): Promise<UserRecord[]>;

  /** Stores the first tokens of a new family (password grant). */
  saveTokens(tokens: IssuedTokens): Promise<void>;
  /**
   * Atomically: if `spentRefreshHash` is live and unspent, marks it spent and stores `tokens` in its family;
   * if it was already spent, revokes the whole family instead; if it is unknown or expired, does nothing.
   */
  rotateRefreshToken(spentRefreshHash: string, tokens: IssuedTokens): Promise<RotationResult>;
  getAccessToken(hash: string): Promise<TokenRecord | undefined>;
  getRefreshToken(hash: string): Promise<RefreshTokenRecord | undefined>;
  /** Deletes one access token; true when it existed. */
  revokeAccessToken(hash: string): Promise<boolean>;
  /** Deletes every access and refresh token of a family; returns the hashes of the access tokens deleted. */
  revokeFamily(family: string): Promise<string[]>;

  /** Failed-login counters (brute-force protection), by opaque key. */
  countFailures(keys: string[]): Promise<FailureCount[]>;
  recordFailure(keys: string[], windowSeconds: number): Promise<void>;
  resetFailures(key: string): Promise<void>;

  publishRevocation(message: RevocationMessage): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Raised by a store when its backend cannot answer; the HTTP layer turns it into 503. */
export class StoreUnavailableError extends Error {
  constructor(cause: unknown) {
    super('token store unavailable', { cause });
    this.name = 'StoreUnavailableError';
  }
}
