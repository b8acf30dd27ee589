import { hash, randomBytes } from 'node:crypto';

/** 32 random bytes (256 bits), base64url: opaque to clients, never stored in clear. */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are stored and announced by this hash only (lowercase hex SHA-256 of the token's UTF-8 bytes). */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

export interface TokenRecord {
  clientId: string;
  /** Absent for a client_credentials token: the client acts as itself. */
  username?: string;
  scope: string[];
  /** Issued at, unix seconds. */
  iat: number;
  /** Expires at, unix seconds. */
  exp: number;
  /** Grant family: every token obtained from one password grant and its refresh chain. */
  family: string;
}

export interface RefreshTokenRecord extends TokenRecord {
  /** Set once the refresh token was exchanged; presenting it again is reuse (RFC 9700 §4.14.2). */
  spent: boolean;
}

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);
