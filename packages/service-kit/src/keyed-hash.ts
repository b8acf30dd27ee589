import { createHmac } from 'node:crypto';

/**
 * HMAC-SHA-256 of `value` under `key`, in hex (DESIGN.md §7.5): what is stored or shared in place of an
 * address, a domain or a fingerprint, so that a store read without the key does not give them away.
 */
export function keyedHash(key: string, value: string): string {
  return createHmac('sha256', key).update(value).digest('hex');
}
