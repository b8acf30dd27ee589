import type http from 'node:http';
import type { RequestHandler } from 'express';
import type { RateLimitStore } from '../../domain/rate-limit';
import { rateLimitHeaders } from '../../domain/rate-limit';
import type { Caller } from '../../domain/authorization';
import { callerOf } from './authenticate';

/**
 * Per-client fixed-window rate limit; a limit of 0 turns it off. Sets the `RateLimit-*` headers on the
 * answer, or rejects with 429 RATE_LIMITED (or 503 when the store is down).
 */
export function clientRateLimit(
  store: RateLimitStore,
  limit: number,
  windowSeconds: number,
): (caller: Caller, res: http.ServerResponse) => Promise<void> {
  return async (caller, res) => {
    if (limit === 0) return;
    const window = await store.hit(caller.clientId, windowSeconds * 1000);
    const headers = rateLimitHeaders(window, limit, windowSeconds);
    for (const name in headers) res.setHeader(name, headers[name]!);
  };
}

/** `clientRateLimit` as Express middleware, after `authenticate`. */
export function rateLimit(limitClient: ReturnType<typeof clientRateLimit>): RequestHandler {
  return async (_req, res, next) => {
    await limitClient(callerOf(res), res);
    next();
  };
}
