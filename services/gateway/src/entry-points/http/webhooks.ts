import type { FeedbackLabel, Webhook } from '@spam-check/contracts';
import type { WebhookConfig } from '../../config';
import type { WebhookDeliveryLog } from '../../data-access/webhook-deliveries';
import type { WebhookSecrets } from '../../data-access/webhook-secrets';
import type { CheckedItem } from '../../domain/review-item';

/** What the check and feedback routes tell: never awaited, never throws (the answer does not wait for it). */
export interface WebhookEvents {
  /** Checks just answered: a `spam` or `suspicious` one raises its event. */
  checked(clientId: string, checks: readonly CheckedItem[]): void;
  /** A report applied by check id: raises `feedback.received` when the review list still holds the check. */
  reported(clientId: string, report: { check_id: string; label: FeedbackLabel }): void;
}

/** The webhooks as the admin API manages them. */
export interface Webhooks {
  events: WebhookEvents;
  secrets: WebhookSecrets;
  deliveries: WebhookDeliveryLog;
  policy: WebhookConfig;
  /** Queues a test event for one webhook, whatever its events; answers the delivery id. */
  sendTest(clientId: string, hook: Webhook): Promise<string>;
  /** The queue takes deliveries (readiness). */
  connected(): boolean;
}
