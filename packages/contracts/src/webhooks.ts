import { z } from 'zod';
import { reviewItemSchema } from './review';

/** The events a site may subscribe a webhook to. */
export const WEBHOOK_EVENTS = ['check.spam', 'check.suspicious', 'feedback.received'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** The type of the event that "Send test event" delivers (to any webhook, whatever its events). */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
export const WEBHOOKS_MAX = 5;
/** How many deliveries of each webhook are kept for the console and the admin API. */
export const WEBHOOK_DELIVERIES_KEPT = 50;

export const webhookIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,40}$/, 'letters, digits, underscore and hyphen, at most 40')
  .describe('The webhook id, chosen by the administrator; unique per client.');

/** One webhook of a client's settings; the signing secret is never part of it (see below). */
export const webhookSchema = z.strictObject({
  id: webhookIdSchema,
  url: z
    .url({ protocol: /^https?$/ })
    .max(2000)
    .describe('Where events are posted; `https` only in production.'),
  events: z
    .array(z.enum(WEBHOOK_EVENTS))
    .min(1)
    .max(WEBHOOK_EVENTS.length)
    .refine((events) => new Set(events).size === events.length, { params: { rule: 'unique_items' } })
    .describe('The events posted to it.'),
  enabled: z
    .boolean()
    .default(true)
    .describe('A disabled webhook is kept (with its secret) but sent nothing.'),
});
export type Webhook = z.infer<typeof webhookSchema>;

export const webhooksSettingSchema = z
  .array(webhookSchema)
  .max(WEBHOOKS_MAX)
  .refine((hooks) => new Set(hooks.map((hook) => hook.id)).size === hooks.length, {
    params: { rule: 'unique_ids' },
  })
  .describe(
    `At most ${WEBHOOKS_MAX} webhooks. The PUT that adds one answers its signing secret once, as \`webhooks[i].secret\`.`,
  );

const SECRET_PATTERN = /^whsec_[A-Za-z0-9+/]{43}=$/;
export const webhookSecretValueSchema = z
  .string()
  .regex(SECRET_PATTERN)
  .describe('`whsec_` and the base64 of 32 random bytes: shown this once, keep it with the receiver.');

/** `POST /admin/clients/{id}/webhooks/{webhook_id}/secret`. */
export const webhookSecretRotationSchema = z.object({
  webhook_id: z.string(),
  secret: webhookSecretValueSchema,
  previous_valid_until: z
    .string()
    .describe('Until when (ISO 8601) the previous secret still signs alongside the new one.'),
});
export type WebhookSecretRotation = z.infer<typeof webhookSecretRotationSchema>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'retrying', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export const webhookDeliverySchema = z.object({
  id: z.string().describe('The `webhook-id` header of every attempt.'),
  event: z.string().describe('The event type.'),
  created_at: z.string().describe('When the event happened (ISO 8601).'),
  updated_at: z.string().describe('When the last attempt ended (ISO 8601).'),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int().nonnegative(),
  last_response_status: z.number().int().nullable().describe("The receiver's last HTTP status, if any."),
  last_error: z.string().nullable().describe('Why the last attempt failed, if it did.'),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

/** `GET /admin/clients/{id}/webhooks/{webhook_id}/deliveries`: the newest first. */
export const webhookDeliveriesSchema = z.object({
  client_id: z.string(),
  webhook_id: z.string(),
  deliveries: z.array(webhookDeliverySchema),
});
export type WebhookDeliveries = z.infer<typeof webhookDeliveriesSchema>;

/** `POST /admin/clients/{id}/webhooks/{webhook_id}/test`: 202, the delivery queued. */
export const webhookTestAnswerSchema = z.object({ delivery_id: z.string(), request_id: z.string() });

/** The body of every delivery. */
export const webhookPayloadSchema = z.object({
  type: z.string().describe(`One of ${WEBHOOK_EVENTS.join(', ')}, or ${WEBHOOK_TEST_EVENT}.`),
  timestamp: z.string().describe('When the event happened (ISO 8601).'),
  data: reviewItemSchema.describe(
    'The check concerned as the review list shows it (`content` only if the client keeps content); for ' +
      '`feedback.received`, with the report.',
  ),
});
export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;
