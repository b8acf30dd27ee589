import { AppError } from '@spam-check/service-kit';

export interface WindowCount {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
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
