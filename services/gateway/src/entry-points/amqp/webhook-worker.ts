import { webhookSignatureHeader, type ClientSettings, type WebhookDelivery } from '@spam-check/contracts';
import type { Logger } from '@spam-check/service-kit';
import type { WebhookDeliveryLog } from '../../data-access/webhook-deliveries';
import type { AttemptOutcome, WebhookPoster } from '../../data-access/webhook-post';
import type { Disposition, JobHandler, WebhookJob } from '../../data-access/webhook-queue';
import type { WebhookSecrets } from '../../data-access/webhook-secrets';
import { nextRetryDelay, retryDelays, type RetryPolicy } from '../../domain/webhook-retry';

export interface WorkerDeps {
  settings: { get(clientId: string): Promise<ClientSettings> };
  secrets: WebhookSecrets;
  deliveries: WebhookDeliveryLog;
  poster: WebhookPoster;
  retry: RetryPolicy;
  /** Attempts of one client in flight at once in this process; more wait their turn in the queue. */
  clientConcurrency: number;
  logger: Logger;
}

/**
 * One delivery attempt per job, in order:
 * - a client with `clientConcurrency` attempts in flight gets its job back after the shortest wait, not
 *   counted as an attempt, so that a slow receiver never holds the worker's slots from other clients;
 * - a webhook removed or disabled since the event, or without a secret, ends the delivery as failed;
 * - the POST carries the Standard Webhooks headers, signed at the attempt (every secret that signs now);
 * - 2xx: delivered; a refused target: failed at once; otherwise retried with backoff until the retry window
 *   from the event ends, then given up (failed, and dead-lettered where the queue has dead letters);
 * - when Redis cannot answer, the job waits the shortest wait and comes back, not counted as an attempt.
 */
export function webhookWorker(deps: WorkerDeps): JobHandler {
  const inFlight = new Map<string, number>();
  const shortestWait = retryDelays(deps.retry)[0] ?? deps.retry.baseMs;
  const later = (job: WebhookJob): Disposition => ({ kind: 'later', job, delayMs: shortestWait });

  const record = async (job: WebhookJob, entry: Omit<WebhookDelivery, 'id' | 'event' | 'created_at'>) => {
    const delivery = { id: job.delivery_id, event: job.type, created_at: job.created_at, ...entry };
    // The log is what the console shows; a delivery does not wait for it, nor fail with it.
    await deps.deliveries.record(job.client_id, job.webhook_id, delivery).catch((error: unknown) => {
      deps.logger.warn({ err: error, delivery_id: job.delivery_id }, 'webhook delivery log not updated');
    });
  };

  const attempt = async (job: WebhookJob): Promise<Disposition> => {
    const now = new Date();
    const settings = await deps.settings.get(job.client_id);
    const hook = settings.webhooks?.find((candidate) => candidate.id === job.webhook_id);
    const secrets = hook?.enabled ? await deps.secrets.signing(job.client_id, job.webhook_id, now) : [];
    const attempts = job.attempts + 1;
    const ended = (error: string, outcome?: AttemptOutcome) =>
      record(job, {
        updated_at: now.toISOString(),
        status: 'failed',
        attempts: job.attempts + (outcome ? 1 : 0),
        last_response_status: outcome?.status ?? null,
        last_error: error,
      });
    if (!hook?.enabled || secrets.length === 0) {
      await ended(hook ? 'webhook disabled or without a secret' : 'webhook removed');
      return { kind: 'done' };
    }
    const timestamp = Math.floor(now.getTime() / 1000);
    const outcome = await deps.poster.post({
      url: hook.url,
      headers: {
        'webhook-id': job.delivery_id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': webhookSignatureHeader(secrets, job.delivery_id, timestamp, job.body),
        'user-agent': 'spam-check-webhooks',
      },
      body: job.body,
    });
    const log = deps.logger.child({ delivery_id: job.delivery_id, client_id: job.client_id, attempts });
    if (outcome.delivered) {
      await record(job, {
        updated_at: new Date().toISOString(),
        status: 'delivered',
        attempts,
        last_response_status: outcome.status,
        last_error: null,
      });
      return { kind: 'done' };
    }
    const delayMs = outcome.refused
      ? undefined
      : nextRetryDelay(deps.retry, attempts, Date.parse(job.created_at), Date.now());
    if (delayMs === undefined) {
      log.warn({ error: outcome.error, status: outcome.status }, 'webhook delivery given up');
      await ended(outcome.error ?? 'failed', outcome);
      return { kind: 'given_up' };
    }
    log.info({ error: outcome.error, status: outcome.status, retry_in_ms: delayMs }, 'webhook attempt failed');
    await record(job, {
      updated_at: new Date().toISOString(),
      status: 'retrying',
      attempts,
      last_response_status: outcome.status,
      last_error: outcome.error,
    });
    return { kind: 'later', job: { ...job, attempts }, delayMs };
  };

  return async (job) => {
    const running = inFlight.get(job.client_id) ?? 0;
    if (running >= deps.clientConcurrency) return later(job);
    inFlight.set(job.client_id, running + 1);
    try {
      return await attempt(job);
    } catch (error) {
      deps.logger.warn({ err: error, delivery_id: job.delivery_id }, 'webhook attempt not made; tried again');
      return later(job);
    } finally {
      const left = (inFlight.get(job.client_id) ?? 1) - 1;
      if (left === 0) inFlight.delete(job.client_id);
      else inFlight.set(job.client_id, left);
    }
  };
}
