import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

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
  lastSeenAt: number;
}

/**
 * Sessions by the id in the browser's cookie. The store is keyed by the id's SHA-256, so a dump of it holds
 * no cookie that would sign anyone in. `ttlMs` is how long the entry may live: the idle or the absolute
 * limit, whichever ends first (both are checked again on every read, see `console/session.ts`).
 */
export interface ConsoleSessionStore {
  read(id: string): Promise<ConsoleSession | undefined>;
  write(id: string, session: ConsoleSession, ttlMs: number): Promise<void>;
  remove(id: string): Promise<void>;
}

const keyOf = (id: string) => createHash('sha256').update(id).digest('base64url');

export function redisConsoleSessions(redis: Redis, prefix: string): ConsoleSessionStore {
  const key = (id: string) => `${prefix}console-session:${keyOf(id)}`;
  return {
    async read(id) {
      const raw = await redis.get(key(id));
      return raw === null ? undefined : (JSON.parse(raw) as ConsoleSession);
    },
    async write(id, session, ttlMs) {
      await redis.set(key(id), JSON.stringify(session), 'PX', Math.max(1, Math.ceil(ttlMs)));
    },
    async remove(id) {
      await redis.del(key(id));
    },
  };
}

/** Embedded mode (no REDIS_URL): one process, sessions in memory, dropped at their expiry or at restart. */
export function memoryConsoleSessions(now: () => number = Date.now): ConsoleSessionStore {
  const entries = new Map<string, { session: string; expiresAt: number }>();
  return {
    async read(id) {
      const entry = entries.get(keyOf(id));
      if (!entry) return undefined;
      if (entry.expiresAt <= now()) {
        entries.delete(keyOf(id));
        return undefined;
      }
      return JSON.parse(entry.session) as ConsoleSession;
    },
    async write(id, session, ttlMs) {
      for (const [key, entry] of entries) if (entry.expiresAt <= now()) entries.delete(key);
      entries.set(keyOf(id), { session: JSON.stringify(session), expiresAt: now() + ttlMs });
    },
    async remove(id) {
      entries.delete(keyOf(id));
    },
  };
}
