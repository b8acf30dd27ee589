import { hash } from 'node:crypto';
import { introspectionSchema, type Introspection } from '@spam-check/contracts';
import { AppError, type Counter } from '@spam-check/service-kit';
import { basicAuthorization, httpPost, type Upstream } from './http-post';
import type { TokenCache } from './token-cache';

/**
 * The auth service announces and stores tokens by this hash (lowercase hex SHA-256), and so does the cache.
 * `crypto.hash` (Node 20.12 and later) rather than a `Hash` object: a quarter of the time, on every request.
 */
function tokenHash(token: string): string {
  return hash('sha256', token, 'hex');
}

export interface TokenIntrospector {
  /** `beforeAsking` runs only when the auth service must be asked (not cached, not in flight); it may throw. */
  introspect(token: string, beforeAsking?: () => void): Promise<Introspection>;
  /** Forgets tokens at once (a revocation was announced), including introspections still in flight. */
  evict(hashes: readonly string[]): void;
  /** Forgets everything (revocations may have been missed while the channel was down). */
  evictAll(): void;
}

interface InFlight {
  promise: Promise<Introspection>;
  stale: boolean;
}

interface IntrospectorOptions {
  authUrl: string;
  clientId: string;
  clientSecret: string;
  timeoutMs: number;
  agent: Upstream;
  cache: TokenCache;
  lookups: Counter<'outcome'>;
}

/** One introspection call; anything but a 200 with a well-formed answer is SERVICE_UNAVAILABLE. */
function introspectionCall(options: IntrospectorOptions): (token: string) => Promise<Introspection> {
  const url = new URL('/oauth/introspect', options.authUrl);
  const authorization = basicAuthorization(options.clientId, options.clientSecret);
  return async (token) => {
    const answer = await httpPost(url, {
      agent: options.agent,
      timeoutMs: options.timeoutMs,
      headers: {
        Authorization: authorization,
        'Content-Type': 'application/x-www-form-urlencoded',
        Accept: 'application/json',
      },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
    }).catch((error: unknown) => {
      throw new AppError('SERVICE_UNAVAILABLE', { cause: error, internal: 'token introspection failed' });
    });
    if (answer.status !== 200)
      throw new AppError('SERVICE_UNAVAILABLE', {
        internal: `token introspection answered ${answer.status}`,
      });
    let json: unknown;
    try {
      json = JSON.parse(answer.body.toString('utf8'));
    } catch (error) {
      throw new AppError('SERVICE_UNAVAILABLE', {
        cause: error,
        internal: 'introspection answer is not JSON',
      });
    }
    const parsed = introspectionSchema.safeParse(json);
    if (!parsed.success)
      throw new AppError('SERVICE_UNAVAILABLE', { internal: 'introspection answer has an unexpected shape' });
    return parsed.data;
  };
}

/**
 * RFC 7662 introspection at the auth service with the gateway's client credentials, behind a bounded cache.
 * Concurrent requests with one token share one call. The auth service unreachable, failing or too slow is
 * SERVICE_UNAVAILABLE: a token is never accepted without an answer.
 */
export function createTokenIntrospector(options: IntrospectorOptions): TokenIntrospector {
  const { cache } = options;
  const ask = introspectionCall(options);
  const inFlight = new Map<string, InFlight>();

  return {
    async introspect(token, beforeAsking) {
      const key = tokenHash(token);
      const cached = cache.get(key);
      if (cached) {
        options.lookups.inc({ outcome: 'cache_hit' });
        return cached;
      }
      const running = inFlight.get(key);
      if (running) {
        options.lookups.inc({ outcome: 'joined' });
        return running.promise;
      }
      beforeAsking?.();
      options.lookups.inc({ outcome: 'introspected' });
      const entry: InFlight = { promise: ask(token), stale: false };
      inFlight.set(key, entry);
      try {
        const result = await entry.promise;
        if (!entry.stale) cache.set(key, result);
        return result;
      } finally {
        if (inFlight.get(key) === entry) inFlight.delete(key);
      }
    },
    evict(hashes) {
      for (const hash of hashes) {
        cache.delete(hash);
        const running = inFlight.get(hash);
        if (running) {
          running.stale = true;
          inFlight.delete(hash);
        }
      }
    },
    evictAll() {
      cache.clear();
      for (const running of inFlight.values()) running.stale = true;
      inFlight.clear();
    },
  };
}
