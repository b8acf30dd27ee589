import type { RevocationMessage } from '@spam-check/contracts';
import type { RefreshTokenRecord, TokenRecord } from './tokens';

export interface ClientRecord {
  id: string;
  secretHash: string;
  /** Grant types this client may use (`password`, `refresh_token`); empty for an introspection-only client. */
  grants: string[];
  /** Scopes this client may obtain; `auth:introspect` allows calling the introspection endpoint. */
  scopes: string[];
  /** SHA-256 (hex) of the client's Akismet key, when it has one (domain/akismet-keys.ts). */
  akismetKeyHash?: string;
}

export interface UserRecord {
  username: string;
  passwordHash: string;
  /** Scopes this user may obtain; absent: every scope of its client except `spam:admin`. */
  scopes?: string[];
}

/** An access token and, unless the client may not refresh, a refresh token, by hash, ready to be stored. */
export interface IssuedTokens {
  accessHash: string;
  access: TokenRecord;
  refresh?: { hash: string; record: RefreshTokenRecord };
}

/** A successor pair: rotation always issues a refresh token. */
export type RotatedTokens = IssuedTokens & { refresh: NonNullable<IssuedTokens['refresh']> };

export type RotationResult =
  { outcome: 'rotated' } | { outcome: 'reused'; revokedAccessHashes: string[] } | { outcome: 'unknown' };

/** One attempt counter and its limit (brute-force protection). */
export interface AttemptLimit {
  key: string;
  max: number;
}

export type Reservation = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Persistence the auth domain needs (its port): implemented in `data-access` by Redis (production) and
 * memory (embedded mode), which pass the same contract tests. Tokens are only ever handled by hash here.
 */
export interface AuthStore {
  readonly kind: 'redis' | 'memory';
  getClient(id: string): Promise<ClientRecord | undefined>;
  saveClient(client: ClientRecord): Promise<void>;
  /** Saves a client whose id is free, atomically; false (nothing written) when the id is taken. */
  createClient(client: ClientRecord): Promise<boolean>;
  deleteClient(id: string): Promise<boolean>;
  listClients(): Promise<ClientRecord[]>;
  getUser(username: string): Promise<UserRecord | undefined>;
  saveUser(user: UserRecord): Promise<void>;
  deleteUser(username: string): Promise<boolean>;
  listUsers(): Promise<UserRecord[]>;

  /** Stores the first tokens of a new family (password grant) and files the family under its client. */
  saveTokens(tokens: IssuedTokens): Promise<void>;
  /**
   * Atomically: if `spentRefreshHash` is live and unspent, marks it spent (remembering its successor) and
   * stores `tokens` in its family; if it was already spent, revokes the whole family instead; if it is unknown
   * or expired, does nothing. A rotation that the store runs only after the call has timed out (a stalled
   * Redis) changes nothing: the caller has answered 503 by then, and a failed refresh must not consume.
   */
  rotateRefreshToken(spentRefreshHash: string, tokens: RotatedTokens): Promise<RotationResult>;
  /**
   * Undoes a rotation whose answer never reached the client: if `spentRefreshHash` is spent with `successor`
   * as its successor and the successor is unspent, deletes the successor pair and makes the token unspent
   * again. True when it did.
   */
  undoRotation(spentRefreshHash: string, successor: RotatedTokens): Promise<boolean>;
  getAccessToken(hash: string): Promise<TokenRecord | undefined>;
  /** The access token, only if its client still exists (a removed client's tokens are not active). */
  getActiveAccessToken(hash: string): Promise<TokenRecord | undefined>;
  getRefreshToken(hash: string): Promise<RefreshTokenRecord | undefined>;
  /** Deletes one access token; true when it existed. */
  revokeAccessToken(hash: string): Promise<boolean>;
  /** Deletes every access and refresh token of a family; returns the hashes of the access tokens deleted. */
  revokeFamily(family: string): Promise<string[]>;
  /** Deletes every token of every family of a client; returns the hashes of the access tokens deleted. */
  revokeClientTokens(clientId: string): Promise<string[]>;

  /**
   * Brute-force counters, by opaque key, in one atomic step: increments every counter (a new one lives
   * `windowSeconds`); if any is then over its limit, takes the increments back and refuses with the longest
   * remaining window. An allowed attempt keeps its reservation: `releaseAttempts` gives it back (the attempt
   * did not fail), `resetAttempts` clears a counter.
   */
  reserveAttempts(limits: AttemptLimit[], windowSeconds: number): Promise<Reservation>;
  releaseAttempts(keys: string[]): Promise<void>;
  resetAttempts(key: string): Promise<void>;

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
