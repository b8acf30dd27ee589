import { createHash } from 'node:crypto';
import type { AuthStore } from '../data-access/store';

export interface LoginGuardOptions {
  maxFailuresPerUser: number;
  maxFailuresPerIp: number;
  windowSeconds: number;
}

export type LoginVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Brute-force protection of the password grant. Rules:
 * - failures are counted per username and per client IP in the store, in a fixed window from the first one;
 * - at the limit, further attempts are refused before any password is checked (429, Retry-After);
 * - unknown usernames count exactly like wrong passwords, so the refusal reveals nothing about existence;
 * - a success clears the username's counter, never the IP's (one valid account must not unlock an IP).
 */
export function createLoginGuard(store: AuthStore, options: LoginGuardOptions) {
  const userKey = (username: string) =>
    `user:${createHash('sha256').update(username.normalize('NFKC').toLowerCase()).digest('hex')}`;
  const ipKey = (ip: string) => `ip:${ip}`;
  return {
    async check(username: string, ip: string): Promise<LoginVerdict> {
      const [user, address] = await store.countFailures([userKey(username), ipKey(ip)]);
      const blocking = [
        user && user.count >= options.maxFailuresPerUser ? user.resetsInSeconds : 0,
        address && address.count >= options.maxFailuresPerIp ? address.resetsInSeconds : 0,
      ];
      const wait = Math.max(...blocking);
      const blocked =
        (user?.count ?? 0) >= options.maxFailuresPerUser || (address?.count ?? 0) >= options.maxFailuresPerIp;
      return blocked ? { allowed: false, retryAfterSeconds: Math.max(1, wait) } : { allowed: true };
    },
    async failed(username: string | undefined, ip: string): Promise<void> {
      const keys = username === undefined ? [ipKey(ip)] : [userKey(username), ipKey(ip)];
      await store.recordFailure(keys, options.windowSeconds);
    },
    async succeeded(username: string): Promise<void> {
      await store.resetFailures(userKey(username));
    },
  };
}
export type LoginGuard = ReturnType<typeof createLoginGuard>;
