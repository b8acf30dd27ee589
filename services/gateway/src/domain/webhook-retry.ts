/**
 * When a failed delivery is tried again:
 * - the n-th retry waits `baseMs * 2^(n-1)`, at most `maxDelayMs`;
 * - a retry that would start after `windowMs` from the event is not made: the delivery is given up;
 * - the waits come from a fixed ladder (`retryDelays`), so that a broker needs one delay queue per rung.
 */
export interface RetryPolicy {
  baseMs: number;
  maxDelayMs: number;
  windowMs: number;
}

/** Every wait a retry may have, shortest first. */
export function retryDelays(policy: RetryPolicy): number[] {
  const delays: number[] = [];
  for (let delay = policy.baseMs; delay < policy.maxDelayMs; delay *= 2) delays.push(delay);
  delays.push(policy.maxDelayMs);
  return delays;
}

/** The wait before the next attempt after `attempts` failed ones, or undefined when it is given up. */
export function nextRetryDelay(
  policy: RetryPolicy,
  attempts: number,
  createdAtMs: number,
  nowMs: number,
): number | undefined {
  const delays = retryDelays(policy);
  const delay = delays[Math.min(Math.max(attempts, 1), delays.length) - 1] ?? policy.maxDelayMs;
  return nowMs + delay > createdAtMs + policy.windowMs ? undefined : delay;
}
