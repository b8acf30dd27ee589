import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AttemptGuard } from './attempt-guard';
import type { AuthStore, ClientRecord } from './store';

export type AkismetKeyCheck =
  | { ok: true; client: ClientRecord }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'throttled'; retryAfterSeconds: number };

/** Keys go into host names (`<key>.<host>`): lowercase hex and one hyphen, a DNS label for short client ids. */
const KEY_FORMAT = /^([0-9a-f]{2,200})-([0-9a-f]{32})$/;

const keyHash = (key: string) => hash('sha256', key, 'hex');

/** The client id a key names, or undefined for anything that is not one of our keys. */
function clientIdOf(key: string): string | undefined {
  const match = KEY_FORMAT.exec(key);
  if (!match?.[1] || match[1].length % 2 !== 0) return undefined;
  return Buffer.from(match[1], 'hex').toString('utf8');
}

/**
 * A client's Akismet key (one at most). The rules:
 * - a key is `<hex of the client id>-<128 random bits in hex>`: it names its client, so checking it is one
 *   store read, and only its SHA-256 is stored (the random part makes a slow hash pointless);
 * - a new key replaces the old one at once, revoking removes it, and a removed client's key is dead with it;
 * - every check goes through the attempt guard as a client secret does (per client id and address, and per
 *   address): wrong keys lock out the sender's address only, and at the limit even a right key waits.
 */
export function akismetKeys(store: AuthStore, guard: AttemptGuard) {
  return {
    /** A new key for the client (shown once), or undefined when there is no such client. */
    async issue(clientId: string): Promise<string | undefined> {
      const client = await store.getClient(clientId);
      if (!client) return undefined;
      const key = `${Buffer.from(clientId, 'utf8').toString('hex')}-${randomBytes(16).toString('hex')}`;
      await store.saveClient({ ...client, akismetKeyHash: keyHash(key) });
      return key;
    },
    /** Removes the client's key; false when there is no such client. */
    async revoke(clientId: string): Promise<boolean> {
      const client = await store.getClient(clientId);
      if (!client) return false;
      const { akismetKeyHash: _removed, ...rest } = client;
      await store.saveClient(rest);
      return true;
    },
    async verify(key: string, ip: string): Promise<AkismetKeyCheck> {
      const clientId = clientIdOf(key.trim().toLowerCase()) ?? '';
      const verdict = await guard.reserve({ clientId: `akismet:${clientId}`, ip });
      if (!verdict.allowed)
        return { ok: false, reason: 'throttled', retryAfterSeconds: verdict.retryAfterSeconds };
      try {
        const client = clientId ? await store.getClient(clientId) : undefined;
        const given = Buffer.from(keyHash(key.trim().toLowerCase()));
        const stored = Buffer.from(client?.akismetKeyHash ?? '');
        if (client && given.length === stored.length && timingSafeEqual(given, stored)) {
          await verdict.attempt.succeeded();
          return { ok: true, client };
        }
        return { ok: false, reason: 'invalid' };
      } catch (error) {
        await verdict.attempt.release();
        throw error;
      }
    },
  };
}
export type AkismetKeys = ReturnType<typeof akismetKeys>;
