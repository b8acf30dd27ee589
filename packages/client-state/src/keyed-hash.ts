import { createHmac } from 'node:crypto';

/**
 * The one keyed hash of personal data that is stored or shared (docs/design.md, Privacy and erasure):
 * HMAC-SHA-256 of `value` under `key`, in hex, in place of an address, a domain or a fingerprint. The same
 * value under the same key always gives the same hash, so exact lookups keep working; without the key a
 * stored hash cannot be turned back into the value by trying likely addresses.
 */
export function keyedHash(key: string, value: string): string {
  return createHmac('sha256', key).update(value).digest('hex');
}
