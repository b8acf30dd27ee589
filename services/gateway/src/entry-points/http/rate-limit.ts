import type { RequestHandler } from 'express';
import type { RateLimitStore } from '../../data-access/rate-limit-store';
import { rateLimitHeaders } from '../../domain/rate-limit';
import { callerOf } from './authenticate';

/** Per-client fixed-window rate limit; a limit of 0 turns it off. Runs after `authenticate`. */
export function rateLimit(store: RateLimitStore, limit: number, windowSeconds: number): RequestHandler {
  return (_req, res, next) => {
    if (limit === 0) return next();
    store.hit(callerOf(res).clientId, windowSeconds * 1000).then((window) => {
      try {
        const headers = rateLimitHeaders(window, limit, windowSeconds);
        for (const name in headers) res.setHeader(name, headers[name]!);
        next();
      } catch (error) {
        next(error);
      }
    }, next);
  };
}
