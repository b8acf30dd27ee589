import { createHmac, randomBytes } from 'node:crypto';

/** The prefix of a signing secret; what follows is the base64 of its key (Standard Webhooks). */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;

/** A new signing secret: `whsec_` and the base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/** The HMAC key of a secret: the base64 after `whsec_` decoded (a secret without the prefix is taken whole). */
function keyOf(secret: string): Buffer {
  const encoded = secret.startsWith(WEBHOOK_SECRET_PREFIX)
    ? secret.slice(WEBHOOK_SECRET_PREFIX.length)
    : secret;
  return Buffer.from(encoded, 'base64');
}

/**
 * One signature of the `webhook-signature` header, as Standard Webhooks defines it: `v1,` and the base64 of
 * HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<body>` keyed with the secret's decoded bytes.
 */
export function webhookSignature(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The `webhook-signature` header: one signature per secret (two while a rotated secret still counts). */
export function webhookSignatureHeader(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string,
): string {
  return secrets.map((secret) => webhookSignature(secret, id, timestamp, body)).join(' ');
}
