import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { reviewContentSchema, type ReviewContent } from '@spam-check/contracts';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A key of its own for each use of REVIEW_CONTENT_KEY, so that no two uses share one. */
export function derivedKey(secret: string, use: 'content' | 'cursor' | 'address'): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'spam-check review', use, 32));
}

/**
 * The submitted fields of a check, encrypted at rest: AES-256-GCM with a random IV per value, authenticated
 * together with the client and the check id (a sealed value copied under another check or client does not
 * open). Sealed: base64url of IV, tag and ciphertext. A value that does not open (another key, altered) reads
 * as no content.
 */
export function contentCipher(secret: string) {
  const key = derivedKey(secret, 'content');
  const aad = (client: string, id: string) => Buffer.from(`${client}\n${id}`);
  return {
    seal(client: string, id: string, content: ReviewContent): string {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(aad(client, id));
      const encrypted = Buffer.concat([cipher.update(JSON.stringify(content)), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), encrypted]).toString('base64url');
    },
    open(client: string, id: string, sealed: string): ReviewContent | undefined {
      const bytes = Buffer.from(sealed, 'base64url');
      if (bytes.length < IV_BYTES + TAG_BYTES) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES))
          .setAAD(aad(client, id))
          .setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
        const plain = Buffer.concat([
          decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
          decipher.final(),
        ]);
        return reviewContentSchema.parse(JSON.parse(plain.toString()));
      } catch {
        return undefined;
      }
    },
  };
}
export type ContentCipher = ReturnType<typeof contentCipher>;
