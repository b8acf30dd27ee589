import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError, type Logger } from '@spam-check/service-kit';
import type { Request, Response } from 'express';
import type { ConsoleSession, ConsoleSessionStore } from './session-store';
import type { ConsoleTokenClient, ConsoleTokens, TokenCallMeta } from './tokens';

const SESSION_COOKIE = 'console_session';
/** Refresh the access token when it has less than this left, so no API call meets an expired one. */
const REFRESH_MARGIN_MS = 60_000;
/** While another replica refreshes, a request goes on with the token it has if this much of it is left. */
const USABLE_MS = 5_000;
/** How often a request that needs the other replica's new token looks for it. */
const WAIT_STEP_MS = 100;

export interface SessionPolicy {
  idleSeconds: number;
  absoluteSeconds: number;
  secureCookie: boolean;
  /** How long one replica may hold a session's refresh: longer than a token call to auth. */
  refreshClaimMs: number;
}

export interface SignedIn {
  id: string;
  session: ConsoleSession;
}

function cookieValue(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

const lifetimeMs = (policy: SessionPolicy, session: ConsoleSession, now: number) =>
  Math.min(policy.idleSeconds * 1000, session.createdAt + policy.absoluteSeconds * 1000 - now);

function withTokens(session: ConsoleSession, fresh: ConsoleTokens, now: number): ConsoleSession {
  return {
    ...session,
    accessToken: fresh.accessToken,
    refreshToken: fresh.refreshToken ?? session.refreshToken,
    accessExpiresAt: now + fresh.expiresInSeconds * 1000,
  };
}

/**
 * A session's access token refreshed by one replica at a time (`claimRefresh`), the refresh token read again
 * under the claim; the other replicas go on with the token they have while at least `USABLE_MS` of it is
 * left, else wait for the new one (503 if it does not come within the claim). One refresh per session per
 * process: concurrent requests share it.
 */
function tokenRefresher(store: ConsoleSessionStore, tokens: ConsoleTokenClient, policy: SessionPolicy) {
  const refreshing = new Map<string, Promise<ConsoleSession | undefined>>();
  /** The session with its token refreshed here, or undefined when auth refused (the session ends). */
  const refreshHere = async (id: string, meta: TokenCallMeta) => {
    try {
      const current = await store.read(id);
      if (!current?.refreshToken) return undefined;
      // Another replica refreshed it between our read and our claim.
      if (current.accessExpiresAt - Date.now() >= REFRESH_MARGIN_MS) return current;
      const fresh = await tokens.refresh(current.refreshToken, meta);
      if (!fresh) return undefined;
      const now = Date.now();
      const session = withTokens(current, fresh, now);
      await store.write(id, session, lifetimeMs(policy, session, now));
      return session;
    } finally {
      await store.releaseRefresh(id);
    }
  };
  /** The session as another replica refreshes it: the token in hand while usable, else the new one. */
  const refreshedElsewhere = async (id: string, seen: ConsoleSession) => {
    if (seen.accessExpiresAt - Date.now() > USABLE_MS) return seen;
    const deadline = Date.now() + policy.refreshClaimMs;
    while (Date.now() < deadline) {
      await sleep(WAIT_STEP_MS);
      const current = await store.read(id);
      if (!current || current.accessExpiresAt > seen.accessExpiresAt) return current;
    }
    throw new AppError('SERVICE_UNAVAILABLE', {
      internal: 'console session: another replica did not finish refreshing its token',
    });
  };
  return (id: string, seen: ConsoleSession, meta: TokenCallMeta) => {
    const running = refreshing.get(id);
    if (running) return running;
    const run = (async () =>
      (await store.claimRefresh(id, policy.refreshClaimMs))
        ? refreshHere(id, meta)
        : refreshedElsewhere(id, seen))().finally(() => refreshing.delete(id));
    refreshing.set(id, run);
    return run;
  };
}

/** Forgets a session first, then revokes its tokens; auth unreachable: they run out at their expiry. */
function sessionDiscarder(store: ConsoleSessionStore, tokens: ConsoleTokenClient, logger: Logger) {
  return async (id: string, session: ConsoleSession, meta: TokenCallMeta) => {
    await store.remove(id);
    try {
      if (session.refreshToken) await tokens.revoke(session.refreshToken, meta);
      await tokens.revoke(session.accessToken, meta);
    } catch (error) {
      logger.warn(
        { err: error, request_id: meta.requestId },
        'console session ended, its tokens not revoked',
      );
    }
  };
}

function newSession(username: string, fresh: ConsoleTokens, now: number): ConsoleSession {
  const empty = { accessToken: '', refreshToken: undefined, accessExpiresAt: 0 };
  const csrf = randomBytes(32).toString('base64url');
  return withTokens({ username, ...empty, csrf, createdAt: now }, fresh, now);
}

/**
 * Console sessions (rules):
 * - the cookie holds a random 256-bit id and nothing else: HttpOnly, SameSite=Strict, Path=/, Secure when
 *   configured (production); no Max-Age, so it goes when the browser closes;
 * - a session ends after `idleSeconds` without a request and `absoluteSeconds` after sign-in, whichever comes
 *   first: each request sets the store entry's lifetime to what is left of both, and the absolute limit is
 *   checked again on every request;
 * - a request changes nothing in the stored session but its lifetime (`touch`): only sign-in and a refresh
 *   write it, so no request can put back tokens that another replica has just replaced, nor a session that
 *   was signed out;
 * - the access token is refreshed shortly before it expires, by one replica at a time (`claimRefresh`;
 *   auth revokes a whole grant family when a used refresh token comes back), with the refresh token read
 *   again under the claim. Meanwhile the other replicas go on with the token they have while at least
 *   `USABLE_MS` of it is left, else wait for the new one (503 if it does not come within the claim);
 * - a session that ends (sign-out, expiry, a new sign-in from the same browser) is forgotten first, then its
 *   refresh token (and with it its family) and its access token are revoked; if auth cannot be reached the
 *   tokens run out at their own expiry (nobody holds them any more), which is logged.
 */
export function consoleSessions(
  store: ConsoleSessionStore,
  tokens: ConsoleTokenClient,
  policy: SessionPolicy,
  logger: Logger,
) {
  const refresh = tokenRefresher(store, tokens, policy);
  const ttlMs = (session: ConsoleSession, now: number) => lifetimeMs(policy, session, now);
  const cookie = (value: string, extra = '') =>
    `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Strict${policy.secureCookie ? '; Secure' : ''}${extra}`;

  const discard = sessionDiscarder(store, tokens, logger);
  const idOf = (req: Request) => {
    const id = cookieValue(req, SESSION_COOKIE);
    return id && /^[A-Za-z0-9_-]{43}$/.test(id) ? id : undefined;
  };

  return {
    /** A new session for fresh tokens; one the browser still held is ended. */
    async start(req: Request, res: Response, username: string, fresh: ConsoleTokens, meta: TokenCallMeta) {
      const previous = idOf(req);
      const old = previous ? await store.read(previous) : undefined;
      if (previous && old) await discard(previous, old, meta);
      const id = randomBytes(32).toString('base64url');
      const now = Date.now();
      const session = newSession(username, fresh, now);
      await store.write(id, session, ttlMs(session, now));
      res.append('Set-Cookie', cookie(id));
    },

    /** The request's live session (touched, its token fresh), or undefined: none, expired or ended. */
    async load(req: Request, meta: TokenCallMeta): Promise<SignedIn | undefined> {
      const id = idOf(req);
      if (!id) return undefined;
      let session = await store.read(id);
      const now = Date.now();
      if (!session) return undefined;
      if (ttlMs(session, now) <= 0) {
        await discard(id, session, meta);
        return undefined;
      }
      if (session.accessExpiresAt - now < REFRESH_MARGIN_MS) {
        session = await refresh(id, session, meta);
        if (!session) {
          await store.remove(id);
          return undefined;
        }
      }
      await store.touch(id, ttlMs(session, now));
      return { id, session };
    },

    async end(res: Response, signedIn: SignedIn, meta: TokenCallMeta): Promise<void> {
      res.append('Set-Cookie', cookie('', '; Max-Age=0'));
      await discard(signedIn.id, signedIn.session, meta);
    },

    /** Tells the browser to drop a cookie whose session is gone. */
    forget(res: Response): void {
      res.append('Set-Cookie', cookie('', '; Max-Age=0'));
    },
  };
}
export type ConsoleSessions = ReturnType<typeof consoleSessions>;
