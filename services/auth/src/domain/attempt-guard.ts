import { hash } from 'node:crypto';
import type { AttemptLimit, AuthStore } from './store';

export interface AttemptGuardOptions {
  maxFailuresPerUser: number;
  maxFailuresPerClient: number;
  maxFailuresPerIp: number;
  windowSeconds: number;
}

/** Who is trying: a password check names the user, a client secret check the client; both name the IP. */
export type Attempter = { ip: string } & ({ username: string } | { clientId: string });

export interface Attempt {
  /** The secret was right: the user's counter starts again; the client's and the IP's slot is given back. */
  succeeded(): Promise<void>;
  /** The attempt was not a guess (bad request, store down): its slots are given back. */
  release(): Promise<void>;
}

export type AttemptVerdict =
  { allowed: true; attempt: Attempt } | { allowed: false; retryAfterSeconds: number };

/**
 * Brute-force protection of every secret check (user passwords and client secrets). Rules:
 * - password failures are counted per username and per client IP; client-secret failures per client id and
 *   IP together, and per client IP. The two kinds never share a counter: a login flood does not stop the
 *   clients' (and the gateway's own) authentication from that address, nor the reverse;
 * - a client's counter is per address, so wrong secrets sent with a client's id lock that id out from the
 *   sender's address only, never for the client's users elsewhere (client ids are public; the secrets are
 *   random, so spreading guesses over addresses wins nothing);
 * - counters are in a fixed window from the first failure; each attempt reserves its slot atomically before
 *   the secret is verified, so N concurrent guesses cost at most the limit in verifications; at the limit,
 *   attempts are refused (429) before any verification, even with the right secret; a refused attempt
 *   writes nothing;
 * - a failed attempt keeps its slot; unknown usernames and client ids count exactly like wrong secrets, so a
 *   refusal reveals nothing about existence;
 * - a success clears the username's counter, never the IP's nor the client's (one valid account must not
 *   unlock an IP, and the right client secret must not reset an attacker's count against that client).
 */
export function createAttemptGuard(store: AuthStore, options: AttemptGuardOptions) {
  const userKey = (username: string) =>
    `user:${hash('sha256', username.normalize('NFKC').toLowerCase(), 'hex')}`;
  const clientKey = (clientId: string, ip: string) => `client:${hash('sha256', clientId, 'hex')}:${ip}`;
  return {
    async reserve(who: Attempter): Promise<AttemptVerdict> {
      const subject: AttemptLimit =
        'username' in who
          ? { key: userKey(who.username), max: options.maxFailuresPerUser }
          : { key: clientKey(who.clientId, who.ip), max: options.maxFailuresPerClient };
      const kind = 'username' in who ? 'login-ip' : 'client-ip';
      const address: AttemptLimit = { key: `${kind}:${who.ip}`, max: options.maxFailuresPerIp };
      const verdict = await store.reserveAttempts([subject, address], options.windowSeconds);
      if (!verdict.allowed) return verdict;
      return {
        allowed: true,
        attempt: {
          async succeeded() {
            if ('username' in who) {
              await store.resetAttempts(subject.key);
              await store.releaseAttempts([address.key]);
            } else await store.releaseAttempts([subject.key, address.key]);
          },
          release: () => store.releaseAttempts([subject.key, address.key]),
        },
      };
    },
  };
}
export type AttemptGuard = ReturnType<typeof createAttemptGuard>;
