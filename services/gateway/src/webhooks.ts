import { randomUUID } from 'node:crypto';
import type { ClientSettingsStore } from '@spam-check/client-settings';
import { WEBHOOK_TEST_EVENT, type Webhook, type WebhookPayload } from '@spam-check/contracts';
import type { Closer, Logger } from '@spam-check/service-kit';
import type { Redis } from 'ioredis';
import { redisWebhookDeliveryLog, type WebhookDeliveryLog } from './data-access/webhook-deliveries';
import { webhookPoster } from './data-access/webhook-post';
import { memoryWebhookQueue, type WebhookJob, type WebhookQueue } from './data-access/webhook-queue';
import { amqpWebhookQueue } from './data-access/webhook-queue-amqp';
import { recentSigningSecrets, redisWebhookSecrets } from './data-access/webhook-secrets';
import { checkEvent, feedbackEvent, testItem, type WebhookItem } from './domain/webhook-payload';
import { retryDelays } from './domain/webhook-retry';
import { webhookWorker } from './entry-points/amqp/webhook-worker';
import type { WebhookConfig } from './config';
import type { Webhooks } from './entry-points/http/webhooks';

/** RabbitMQ with AMQP_URL, else memory (embedded mode: lost on restart). */
function deliveryQueue(config: WebhookConfig, amqpUrl: string | undefined, log: Logger): WebhookQueue {
  if (!amqpUrl) return memoryWebhookQueue({ concurrency: config.concurrency, logger: log });
  return amqpWebhookQueue({
    url: amqpUrl,
    queue: config.queue,
    delays: retryDelays(config.retry),
    concurrency: config.concurrency,
    logger: log,
  });
}

/**
 * A new delivery of an event to one webhook: its body fixed now, then queued; answers the delivery id (its
 * `webhook-id`). Events appear in the log from their first attempt (one Redis write less per delivery); a
 * test event, asked for in the console, is logged as pending at once. A delivery the queue did not take is
 * logged as failed.
 */
function enqueuer(queue: WebhookQueue, deliveries: WebhookDeliveryLog, log: Logger) {
  return async (clientId: string, hook: Webhook, type: string, item: WebhookItem, logPending = false) => {
    const now = new Date().toISOString();
    const payload: WebhookPayload = { type, timestamp: now, data: { ...item } };
    const job: WebhookJob = {
      delivery_id: `msg_${randomUUID().replaceAll('-', '')}`,
      client_id: clientId,
      webhook_id: hook.id,
      type,
      created_at: now,
      body: JSON.stringify(payload),
      attempts: 0,
    };
    const entry = {
      id: job.delivery_id,
      event: type,
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

/**
 * The webhooks of the gateway: events become deliveries in the queue (RabbitMQ with AMQP_URL, memory
 * otherwise), and this process's worker delivers them (docs/design.md, "Webhooks"). Needs Redis: the
 * settings, secrets and delivery log live there.
 */
export function startWebhooks(deps: {
  config: WebhookConfig;
  amqpUrl: string | undefined;
  redis: Redis;
  prefix: string;
  settings: ClientSettingsStore;
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

  const emit = (clientId: string, event: { type: Webhook['events'][number]; item: WebhookItem }) => {
    deps.settings
      .get(clientId)
      .then(async (settings) => {
        const hooks = settings.webhooks?.filter((hook) => hook.enabled && hook.events.includes(event.type));
        if (hooks) await Promise.all(hooks.map((hook) => enqueue(clientId, hook, event.type, event.item)));
      })
      .catch((error: unknown) =>
        log.error({ err: error, client_id: clientId, event: event.type }, 'webhook event not queued'),
      );
  };

  return {
    events: {
      checked(clientId, kind, result) {
        const event = checkEvent(kind, result, new Date());
        if (event) emit(clientId, event);
      },
      reported(clientId, report) {
        emit(clientId, feedbackEvent({ ...report, at: new Date() }));
      },
    },
    secrets,
    deliveries,
    policy: config,
    sendTest: (clientId, hook) => enqueue(clientId, hook, WEBHOOK_TEST_EVENT, testItem(new Date()), true),
    connected: () => queue.connected(),
  };
}
