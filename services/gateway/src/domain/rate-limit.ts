import { AppError } from '@spam-check/service-kit';

export interface WindowCount {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

/** What a batch got of the window: `granted` of the requests it asked for, and the window after them. */
export interface Allowance extends WindowCount {
  granted: number;
}

/**
 * Counts a client's requests in fixed windows of `windowMs`: the port the rate limits need, implemented in
 * Redis and in memory by `data-access/rate-limit-store.ts`.
 */
export interface RateLimitStore {
  hit(clientId: string, windowMs: number): Promise<WindowCount>;
  /**
   * Takes up to `want` requests of the window at once (a batch: each item counts as one request), never past
   * the limit; `granted` says how many it got, 0 when the window is spent.
   */
  take(clientId: string, windowMs: number, want: number): Promise<Allowance>;
}

/**
 * Rate limit headers (draft-ietf-httpapi-ratelimit-headers: RateLimit-Limit, -Remaining, -Reset in seconds,
 * RateLimit-Policy) for a fixed window; over the limit, RATE_LIMITED with Retry-After.
 */
export function rateLimitHeaders(
  window: WindowCount,
  limit: number,
  windowSeconds: number,
): Record<string, string> {
  const reset = Math.max(1, Math.ceil(window.resetMs / 1000));
  const headers: Record<string, string> = {
    'RateLimit-Policy': `${limit};w=${windowSeconds}`,
    'RateLimit-Limit': String(limit),
    'RateLimit-Remaining': String(Math.max(0, limit - window.count)),
    'RateLimit-Reset': String(reset),
  };
  if (window.count > limit)
    throw new AppError('RATE_LIMITED', { headers: { ...headers, 'Retry-After': String(reset) } });
  return headers;
}

/**
 * A batch counts one request per item (docs/design.md, Batch checks). Nothing granted: RATE_LIMITED, as for a
 * single request. Some granted: the headers, plus `Retry-After` saying when the items that did not fit can be
 * sent.
 */
export function batchRateLimitHeaders(
  allowance: Allowance,
  wanted: number,
  limit: number,
  windowSeconds: number,
): Record<string, string> {
  if (allowance.granted === 0)
    return rateLimitHeaders({ count: limit + 1, resetMs: allowance.resetMs }, limit, windowSeconds);
  const headers = rateLimitHeaders(allowance, limit, windowSeconds);
  if (allowance.granted < wanted) headers['Retry-After'] = headers['RateLimit-Reset']!;
  return headers;
}
