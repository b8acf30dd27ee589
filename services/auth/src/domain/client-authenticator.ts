import { hash } from 'node:crypto';
import type { AuthStore, ClientRecord } from '../data-access/store';
import type { SecretHasher } from './secrets';

export interface ClientAuthenticator {
  /** The client if `secret` is its secret, else undefined. */
  authenticate(clientId: string, secret: string): Promise<ClientRecord | undefined>;
}

const MAX_CACHED = 1000;

/**
 * Verifies client secrets with scrypt, and remembers successful verifications for a short time: the gateway
 * authenticates on every introspection, and one scrypt per call would cap introspection at a few dozen per
 * second. Only successes are cached (keyed by a hash of id and secret), so a wrong secret always costs a full
 * scrypt; a rotated or removed client stops working for callers within `cacheSeconds`.
 */
export function createClientAuthenticator(
  store: AuthStore,
  hasher: SecretHasher,
  cacheSeconds: number,
): ClientAuthenticator {
  const cache = new Map<string, { client: ClientRecord; expiresAt: number }>();
  return {
    async authenticate(clientId, secret) {
      const key = hash('sha256', `${clientId}\u0000${secret}`, 'hex');
      const cached = cache.get(key);
      if (cached && cached.expiresAt > Date.now()) return cached.client;
      cache.delete(key);
      const client = await store.getClient(clientId);
      const valid = client
        ? await hasher.verify(secret, client.secretHash)
        : await hasher.verifyNothing(secret);
      if (!client || !valid) return undefined;
      if (cacheSeconds > 0) {
        if (cache.size >= MAX_CACHED) cache.clear();
        cache.set(key, { client, expiresAt: Date.now() + cacheSeconds * 1000 });
      }
      return client;
    },
  };
}
