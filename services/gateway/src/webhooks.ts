import { randomUUID } from 'node:crypto';
import type { ClientSettingsStore } from '@spam-check/client-settings';
import {
  WEBHOOK_TEST_EVENT,
  type ClientSettings,
  type ReviewItem,
  type Webhook,
  type WebhookEvent,
} from '@spam-check/contracts';
import type { Closer, Logger } from '@spam-check/service-kit';
import type { RedisClient } from '@spam-check/service-kit';
import { redisWebhookDeliveryLog, type WebhookDeliveryLog } from './data-access/webhook-deliveries';
import { webhookPoster } from './data-access/webhook-post';
import { memoryWebhookQueue, type WebhookJob, type WebhookQueue } from './data-access/webhook-queue';
import { amqpWebhookQueue } from './data-access/webhook-queue-amqp';
import { recentSigningSecrets, redisWebhookSecrets } from './data-access/webhook-secrets';
import type { Review } from './data-access/review';
import { keptContentDays } from './domain/review-item';
import { checkEvent, feedbackEvent, testItem, webhookPayload } from './domain/webhook-payload';
import { retryDelays } from './domain/webhook-retry';
import { webhookWorker } from './entry-points/amqp/webhook-worker';
import type { WebhookConfig } from './config';
import type { WebhookEvents, Webhooks } from './entry-points/http/webhooks';

/** RabbitMQ with AMQP_URL, else memory (embedded mode: lost on restart). */
function deliveryQueue(
  config: WebhookConfig,
  amqpUrl: readonly string[] | undefined,
  log: Logger,
): WebhookQueue {
  if (!amqpUrl) return memoryWebhookQueue({ concurrency: config.concurrency, logger: log });
  return amqpWebhookQueue({
    url: amqpUrl,
    queue: config.queue,
    delays: retryDelays(config.retry),
    concurrency: config.concurrency,
    logger: log,
  });
}

/** An event as its deliveries carry it: the body fixed once, for every webhook subscribed to it. */
interface QueuedEvent {
  type: string;
  created_at: string;
  body: string;
}

function queuedEvent(type: string, item: ReviewItem): QueuedEvent {
  const at = new Date();
  return { type, created_at: at.toISOString(), body: JSON.stringify(webhookPayload(type, item, at)) };
}

/**
 * A new delivery of an event to one webhook, then queued; answers the delivery id (its `webhook-id`). Events
 * appear in the log from their first attempt (one Redis write less per delivery); a test event, asked for in
 * the console, is logged as pending at once. A delivery the queue did not take is logged as failed.
 */
function enqueuer(queue: WebhookQueue, deliveries: WebhookDeliveryLog, log: Logger) {
  return async (clientId: string, hook: Webhook, event: QueuedEvent, logPending = false) => {
    const now = event.created_at;
    const job: WebhookJob = {
      delivery_id: `msg_${randomUUID().replaceAll('-', '')}`,
      client_id: clientId,
      webhook_id: hook.id,
      type: event.type,
      created_at: now,
      body: event.body,
      attempts: 0,
    };
    const entry = {
      id: job.delivery_id,
      event: event.type,
      created_at: now,
      attempts: 0,
      last_response_status: null,
    };
    const logged = (error: unknown) =>
      log.warn({ err: error, delivery_id: job.delivery_id }, 'webhook delivery log not updated');
    if (logPending)
      await deliveries
        .record(clientId, hook.id, { ...entry, updated_at: now, status: 'pending', last_error: null })
        .catch(logged);
    try {
      await queue.publish(job);
    } catch (error) {
      log.error(
        { err: error, delivery_id: job.delivery_id, client_id: clientId },
        'webhook delivery not queued',
      );
      await deliveries
        .record(clientId, hook.id, {
          ...entry,
          updated_at: new Date().toISOString(),
          status: 'failed',
          last_error: 'not queued: the queue was unavailable',
        })
        .catch(logged);
    }
    return job.delivery_id;
  };
}

type Event = { type: WebhookEvent; item: ReviewItem };

/**
 * The events of checks and reports: each queued for every enabled webhook of the client subscribed to it.
 * A check's data is its review item, built as the review list builds it; a report's is the reported check's
 * item, read from the review list (a check it no longer holds raises no event).
 */
function webhookEvents(deps: {
  settings: ClientSettingsStore;
  review: Pick<Review, 'item' | 'keepContentDaysDefault'>;
  enqueue: ReturnType<typeof enqueuer>;
  log: Logger;
}): WebhookEvents {
  const emit = (
    clientId: string,
    name: string,
    eventsOf: (settings: ClientSettings) => Promise<Event[]> | Event[],
  ) => {
    deps.settings
      .get(clientId)
      .then(async (settings) => {
        const hooks = settings.webhooks?.filter((hook) => hook.enabled);
        if (!hooks?.length) return;
        const queued = (await eventsOf(settings)).flatMap((event) => {
          const subscribed = hooks.filter((hook) => hook.events.includes(event.type));
          if (subscribed.length === 0) return [];
          const queuedOnce = queuedEvent(event.type, event.item);
          return subscribed.map((hook) => deps.enqueue(clientId, hook, queuedOnce));
        });
        await Promise.all(queued);
      })
      .catch((error: unknown) =>
        deps.log.error({ err: error, client_id: clientId, event: name }, 'webhook event not queued'),
      );
  };
  return {
    checked(clientId, checks) {
      const at = new Date();
      emit(clientId, 'check', (settings) => {
        const keepsContent = keptContentDays(settings, deps.review.keepContentDaysDefault) > 0;
        return checks.flatMap((check) => checkEvent(check, { keepsContent, at }) ?? []);
      });
    },
    reported(clientId, report) {
      const at = new Date();
      emit(clientId, 'feedback.received', async () => {
        const item = await deps.review.item(clientId, report.check_id);
        return item ? [feedbackEvent(item, { label: report.label, at })] : [];
      });
    },
  };
}

/**
 * The webhooks of the gateway: events become deliveries in the queue (RabbitMQ with AMQP_URL, memory
 * otherwise), and this process's worker delivers them (docs/design.md, "Webhooks"). Needs Redis: the
 * settings, secrets and delivery log live there.
 */
export function startWebhooks(deps: {
  config: WebhookConfig;
  amqpUrl: readonly string[] | undefined;
  redis: RedisClient;
  prefix: string;
  settings: ClientSettingsStore;
  review: Pick<Review, 'item' | 'keepContentDaysDefault'>;
  logger: Logger;
  closers: Closer[];
}): Webhooks {
  const { config, logger } = deps;
  const log = logger.child({ component: 'webhooks' });
  const secrets = redisWebhookSecrets(deps.redis, deps.prefix, config.secretKey);
  const deliveries = redisWebhookDeliveryLog(deps.redis, deps.prefix);
  const poster = webhookPoster({ timeoutMs: config.timeoutMs, policy: config });
  const queue = deliveryQueue(config, deps.amqpUrl, log);
  queue.consume(
    webhookWorker({
      settings: deps.settings,
      secrets: recentSigningSecrets(secrets),
      deliveries,
      poster,
      retry: config.retry,
      clientConcurrency: config.clientConcurrency,
      logger: log,
    }),
  );
  deps.closers.unshift({
    name: 'webhooks',
    close: async () => {
      await queue.close();
      poster.close();
    },
  });

  const enqueue = enqueuer(queue, deliveries, log);

  return {
    events: webhookEvents({ settings: deps.settings, review: deps.review, enqueue, log }),
    secrets,
    deliveries,
    policy: config,
    sendTest: (clientId, hook) =>
      enqueue(clientId, hook, queuedEvent(WEBHOOK_TEST_EVENT, testItem(new Date())), true),
    connected: () => queue.connected(),
  };
}
