import type { Webhook } from '@spam-check/contracts';
import type { WebhookConfig } from '../../config';
import type { WebhookDeliveryLog } from '../../data-access/webhook-deliveries';
import type { WebhookSecrets } from '../../data-access/webhook-secrets';
import type { CheckedResult } from '../../domain/webhook-payload';

/** What the check and feedback routes tell: never awaited, never throws (the answer does not wait for it). */
export interface WebhookEvents {
  checked(clientId: string, kind: 'mail' | 'text' | 'hybrid', result: CheckedResult): void;
  reported(clientId: string, report: { check_id: string | null; label: 'spam' | 'ham' }): void;
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
