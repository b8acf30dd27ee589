import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const KEY_LENGTH = 32;

function derive(secret: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(secret, salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

const scryptOptions = (N: number, r: number, p: number): ScryptOptions => ({ N, r, p, maxmem: 256 * N * r });

/**
 * Hashes client secrets and user passwords with scrypt. The parameters travel with each hash
 * (`scrypt$N$r$p$salt$key`), so raising the cost applies to new hashes without breaking old ones.
 */
export interface SecretHasher {
  hash(secret: string): Promise<string>;
  verify(secret: string, encoded: string): Promise<boolean>;
  /** Burns the same time as a failed verify, so an unknown user cannot be told from a wrong password. */
  verifyNothing(secret: string): Promise<false>;
}

export function createSecretHasher(cost: number): SecretHasher {
  const r = 8;
  const p = 1;
  let decoy: Promise<string> | undefined;
  const hasher: SecretHasher = {
    async hash(secret) {
      const salt = randomBytes(16);
      const key = await derive(secret, salt, scryptOptions(cost, r, p));
      return ['scrypt', cost, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
    },
    async verify(secret, encoded) {
      const [scheme, n, rr, pp, salt, key] = encoded.split('$');
      if (scheme !== 'scrypt' || !salt || !key) return false;
      const expected = Buffer.from(key, 'base64url');
      const actual = await derive(
        secret,
        Buffer.from(salt, 'base64url'),
        scryptOptions(Number(n), Number(rr), Number(pp)),
      );
      return actual.length === expected.length && timingSafeEqual(actual, expected);
    },
    async verifyNothing(secret) {
      decoy ??= hasher.hash(randomBytes(16).toString('hex'));
      await hasher.verify(secret, await decoy);
      return false;
    },
  };
  return hasher;
}
