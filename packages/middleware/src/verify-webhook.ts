import { timingSafeEqual } from 'node:crypto';
import { webhookSignature } from '@spam-check/contracts/webhook-signature';

/** How far a delivery's `webhook-timestamp` may be from now (replays of an old delivery are refused). */
const TOLERANCE_SECONDS = 5 * 60;

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

/** A delivery's body once verified: the event and the review item of the check concerned. */
export interface WebhookEventBody {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

type Headers = Record<string, string | string[] | undefined> | { get(name: string): string | null };

function header(headers: Headers, name: string): string | undefined {
  if (typeof headers.get === 'function') return headers.get(name) ?? undefined;
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Verifies a delivery of the service's webhooks (Standard Webhooks): `webhook-id`, `webhook-timestamp` within
 * five minutes of now, and one of the `webhook-signature` signatures made with `secret` (`whsec_...`) over the
 * raw body, exactly as received. Answers the parsed body; throws WebhookVerificationError otherwise.
 * `headers`: Node's `req.headers` or a fetch `Headers`.
 */
export function verifyWebhook(
  secret: string,
  headers: Headers,
  rawBody: string | Buffer,
  now = Date.now(),
): WebhookEventBody {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('missing webhook headers');
  const seconds = Number(timestamp);
  if (!/^\d{1,15}$/.test(timestamp) || Math.abs(now / 1000 - seconds) > TOLERANCE_SECONDS)
    throw new WebhookVerificationError('webhook-timestamp too old or in the future');
  const body = typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8');
  const expected = Buffer.from(webhookSignature(secret, id, seconds, body));
  const matches = signatures.split(' ').some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookVerificationError('no matching signature');
  return JSON.parse(body) as WebhookEventBody;
}
