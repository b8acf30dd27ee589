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

const MAX_CACHED = 1000;

/**
 * Verifies client secrets with scrypt, and remembers successful verifications for a short time: the gateway
 * authenticates on every introspection, and one scrypt per call would cap introspection at a few dozen per
 * second. Only successes are cached (keyed by a hash of id and secret), so a wrong secret always costs a
 * reservation with the attempt guard (per client id and per IP) and, within the limits, a full scrypt. A
 * cached success still reads the client (one store read, no scrypt) and holds only while the stored secret
 * hash is the one verified: a rotated or removed client is refused at once, on every replica. Concurrent
 * checks of the same id and secret share one verification (one reservation, one scrypt): a cold cache under
 * a burst of the gateway's introspections must not run into the per-client limit, which counts attempts in
 * flight.
 */
export function createClientAuthenticator(
  store: AuthStore,
  hasher: SecretHasher,
  guard: AttemptGuard,
  cacheSeconds: number,
): ClientAuthenticator {
  const cache = new Map<string, { client: ClientRecord; expiresAt: number }>();
  const inFlight = new Map<string, Promise<ClientCheck>>();

  const verify = async (key: string, clientId: string, secret: string, ip: string): Promise<ClientCheck> => {
    const verdict = await guard.reserve({ clientId, ip });
    if (!verdict.allowed)
      return { ok: false, reason: 'throttled', retryAfterSeconds: verdict.retryAfterSeconds };
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
    if (cacheSeconds > 0) {
      if (cache.size >= MAX_CACHED) cache.clear();
      cache.set(key, { client, expiresAt: Date.now() + cacheSeconds * 1000 });
    }
    return { ok: true, client };
  };

  return {
    async authenticate(clientId, secret, ip) {
      const key = hash('sha256', `${clientId}\u0000${secret}`, 'hex');
      const cached = cache.get(key);
      if (cached && cached.expiresAt > Date.now()) {
        const current = await store.getClient(clientId);
        if (current && current.secretHash === cached.client.secretHash) return { ok: true, client: current };
      }
      cache.delete(key);
      const running = inFlight.get(key);
      if (running) return running;
      const check = verify(key, clientId, secret, ip).finally(() => inFlight.delete(key));
      inFlight.set(key, check);
      return check;
    },
  };
}
