import { hash } from 'node:crypto';
import type { AuthStore, ClientRecord } from './store';
import type { AttemptGuard } from './attempt-guard';
import type { SecretHasher } from './secrets';

export type ClientCheck =
  | { ok: true; client: ClientRecord }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'throttled'; retryAfterSeconds: number };

export interface ClientAuthenticator {
  /** The client if `secret` is its secret; refused before any scrypt once the id or the IP is over its limit. */
  authenticate(clientId: string, secret: string, ip: string): Promise<ClientCheck>;
}

const MAX_REMEMBERED = 1000;

/**
 * Verifies client secrets with scrypt, and remembers successful verifications (keyed by a hash of id and
 * secret): the gateway authenticates on every introspection, and one scrypt per call would cap
 * introspection at a few dozen per second. A remembered success is used two ways:
 * - for `cacheSeconds`, it answers without the attempt guard and without scrypt;
 * - for `trustSeconds` (the failure window), it answers when the guard refuses: the attempt limits are there
 *   for guessers, and a caller that proved this very secret before is not one. Without it, failures of
 *   others from the same address (a NAT, one host) would stop the gateway's own introspection.
 * Either way it reads the client (one store read, no scrypt) and holds only while the stored secret hash is
 * the one verified: a rotated or removed client is refused at once, on every replica. Only successes are
 * remembered, so a wrong secret always costs a reservation with the attempt guard and, within the limits, a
 * full scrypt. Concurrent checks of the same id and secret share one verification (one reservation, one
 * scrypt): a cold cache under a burst of the gateway's introspections must not run into the per-client
 * limit, which counts attempts in flight.
 */
export function createClientAuthenticator(
  store: AuthStore,
  hasher: SecretHasher,
  guard: AttemptGuard,
  { cacheSeconds, trustSeconds }: { cacheSeconds: number; trustSeconds: number },
): ClientAuthenticator {
  const verified = new Map<string, { client: ClientRecord; at: number }>();
  const inFlight = new Map<string, Promise<ClientCheck>>();

  /** The client as it is stored now, if `key` was verified less than `seconds` ago with today's secret. */
  const remembered = async (key: string, clientId: string, seconds: number) => {
    const entry = verified.get(key);
    if (!entry || entry.at + seconds * 1000 <= Date.now()) return undefined;
    const current = await store.getClient(clientId);
    return current && current.secretHash === entry.client.secretHash ? current : undefined;
  };

  const verify = async (key: string, clientId: string, secret: string, ip: string): Promise<ClientCheck> => {
    const verdict = await guard.reserve({ clientId, ip });
    if (!verdict.allowed) {
      const trusted = await remembered(key, clientId, trustSeconds);
      if (trusted) return { ok: true, client: trusted };
      return { ok: false, reason: 'throttled', retryAfterSeconds: verdict.retryAfterSeconds };
    }
    let client: ClientRecord | undefined;
    try {
      client = await store.getClient(clientId);
    } catch (error) {
      await verdict.attempt.release().catch(() => undefined);
      throw error;
    }
    const valid = client
      ? await hasher.verify(secret, client.secretHash)
      : await hasher.verifyNothing(secret);
    if (!client || !valid) return { ok: false, reason: 'invalid' };
    await verdict.attempt.succeeded();
    if (verified.size >= MAX_REMEMBERED) verified.clear();
    verified.set(key, { client, at: Date.now() });
    return { ok: true, client };
  };

  return {
    async authenticate(clientId, secret, ip) {
      const key = hash('sha256', `${clientId}\u0000${secret}`, 'hex');
      const cached = await remembered(key, clientId, cacheSeconds);
      if (cached) return { ok: true, client: cached };
      const running = inFlight.get(key);
      if (running) return running;
      const check = verify(key, clientId, secret, ip).finally(() => inFlight.delete(key));
      inFlight.set(key, check);
      return check;
    },
  };
}
