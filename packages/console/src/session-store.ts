import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import type { RedisClient } from '@spam-check/service-kit';

/** What the console keeps per signed-in operator; none of it ever goes to the browser. */
export interface ConsoleSession {
  username: string;
  accessToken: string;
  refreshToken: string | undefined;
  /** Epoch ms when the access token expires (refreshed shortly before). */
  accessExpiresAt: number;
  /** The synchronizer token every change must carry (CSRF). */
  csrf: string;
  createdAt: number;
}

/**
 * Sessions by the id in the browser's cookie. The store is keyed by the id's SHA-256, so a dump of it holds
 * no cookie that would sign anyone in; in Redis the session itself is encrypted with a key derived from the
 * cookie id (below), so a dump holds no usable token either. `ttlMs` is how long the entry may live: the
 * idle or the absolute limit, whichever ends first; an entry past it is never read again, so the store's
 * expiry is what ends an idle session (see `console/session.ts`).
 */
export interface ConsoleSessionStore {
  read(id: string): Promise<ConsoleSession | undefined>;
  write(id: string, session: ConsoleSession, ttlMs: number): Promise<void>;
  /** A request came: the entry lives `ttlMs` from now, unchanged (nothing when it is gone). */
  touch(id: string, ttlMs: number): Promise<void>;
  remove(id: string): Promise<void>;
  /**
   * Takes the session's refresh for `ms` (false: another replica holds it), so that only one replica at a
   * time sends the session's refresh token to auth, which ends the whole grant family when one comes back.
   */
  claimRefresh(id: string, ms: number): Promise<boolean>;
  releaseRefresh(id: string): Promise<void>;
}

const keyOf = (id: string) => createHash('sha256').update(id).digest('base64url');

/**
 * AES-256-GCM under HKDF-SHA256(cookie id): only a holder of the cookie can read a session's tokens, and a
 * changed value does not decrypt (read as no session). The cookie id has 256 random bits, so no salt is
 * needed; the `info` keeps this key apart from any other use of the id (the store key is its plain hash).
 */
const cipherKey = (id: string) =>
  Buffer.from(hkdfSync('sha256', id, Buffer.alloc(0), 'spam-check console session v1', 32));

function seal(id: string, session: ConsoleSession): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', cipherKey(id), iv);
  const sealed = Buffer.concat([cipher.update(JSON.stringify(session), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

function open(id: string, stored: string): ConsoleSession | undefined {
  const bytes = Buffer.from(stored, 'base64url');
  try {
    const decipher = createDecipheriv('aes-256-gcm', cipherKey(id), bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    const plain = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]);
    return JSON.parse(plain.toString('utf8')) as ConsoleSession;
  } catch {
    return undefined;
  }
}

export function redisConsoleSessions(redis: RedisClient, prefix: string): ConsoleSessionStore {
  const key = (id: string) => `${prefix}console-session:${keyOf(id)}`;
  const claim = (id: string) => `${prefix}console-refresh:${keyOf(id)}`;
  const ms = (value: number) => Math.max(1, Math.ceil(value));
  return {
    async read(id) {
      const stored = await redis.get(key(id));
      return stored === null ? undefined : open(id, stored);
    },
    async write(id, session, ttlMs) {
      await redis.set(key(id), seal(id, session), 'PX', ms(ttlMs));
    },
    async touch(id, ttlMs) {
      await redis.pexpire(key(id), ms(ttlMs));
    },
    async remove(id) {
      await redis.del(key(id));
    },
    async claimRefresh(id, claimMs) {
      return (await redis.set(claim(id), '1', 'PX', ms(claimMs), 'NX')) === 'OK';
    },
    async releaseRefresh(id) {
      await redis.del(claim(id));
    },
  };
}

/** Embedded mode (no REDIS_URL): one process, sessions in memory, dropped at their expiry or at restart. */
export function memoryConsoleSessions(now: () => number = Date.now): ConsoleSessionStore {
  const entries = new Map<string, { session: string; expiresAt: number }>();
  const claims = new Map<string, number>();
  const live = (id: string) => {
    const entry = entries.get(keyOf(id));
    if (entry && entry.expiresAt <= now()) entries.delete(keyOf(id));
    return entry && entry.expiresAt > now() ? entry : undefined;
  };
  return {
    async read(id) {
      const entry = live(id);
      return entry ? (JSON.parse(entry.session) as ConsoleSession) : undefined;
    },
    async write(id, session, ttlMs) {
      for (const [key, entry] of entries) if (entry.expiresAt <= now()) entries.delete(key);
      entries.set(keyOf(id), { session: JSON.stringify(session), expiresAt: now() + ttlMs });
    },
    async touch(id, ttlMs) {
      const entry = live(id);
      if (entry) entry.expiresAt = now() + ttlMs;
    },
    async remove(id) {
      entries.delete(keyOf(id));
    },
    async claimRefresh(id, claimMs) {
      if ((claims.get(keyOf(id)) ?? 0) > now()) return false;
      claims.set(keyOf(id), now() + claimMs);
      return true;
    },
    async releaseRefresh(id) {
      claims.delete(keyOf(id));
    },
  };
}
