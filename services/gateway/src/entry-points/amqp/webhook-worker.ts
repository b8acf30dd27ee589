import { webhookSignatureHeader, type ClientSettings, type WebhookDelivery } from '@spam-check/contracts';
import type { Logger } from '@spam-check/service-kit';
import type { WebhookDeliveryLog } from '../../data-access/webhook-deliveries';
import type { AttemptOutcome, WebhookPoster } from '../../data-access/webhook-post';
import type { Disposition, JobHandler, WebhookJob } from '../../data-access/webhook-queue';
import type { WebhookSecrets } from '../../data-access/webhook-secrets';
import { nextRetryDelay, retryDelays, type RetryPolicy } from '../../domain/webhook-retry';

export interface WorkerDeps {
  settings: { get(clientId: string): Promise<ClientSettings> };
  secrets: Pick<WebhookSecrets, 'signing'>;
  deliveries: WebhookDeliveryLog;
  poster: WebhookPoster;
  retry: RetryPolicy;
  /** Attempts of one client in flight at once in this process; more wait their turn in the queue. */
  clientConcurrency: number;
  logger: Logger;
}

type Entry = Omit<WebhookDelivery, 'id' | 'event' | 'created_at'>;

/** Writes a delivery's state to the log the console shows; a delivery neither waits for it nor fails with it. */
function logWriter(deps: WorkerDeps) {
  return async (job: WebhookJob, entry: Entry) => {
    const delivery = { id: job.delivery_id, event: job.type, created_at: job.created_at, ...entry };
    await deps.deliveries.record(job.client_id, job.webhook_id, delivery).catch((error: unknown) => {
      deps.logger.warn({ err: error, delivery_id: job.delivery_id }, 'webhook delivery log not updated');
    });
  };
}

/** The Standard Webhooks headers of one attempt, signed now with every secret that signs now. */
function signedHeaders(job: WebhookJob, secrets: string[], now: Date): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    'webhook-id': job.delivery_id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': webhookSignatureHeader(secrets, job.delivery_id, timestamp, job.body),
    'user-agent': 'spam-check-webhooks',
  };
}

/** What follows an attempt: delivered, retried after the policy's wait, or given up. */
function afterAttempt(
  job: WebhookJob,
  outcome: AttemptOutcome,
  retry: RetryPolicy,
): { disposition: Disposition; entry: Entry } {
  const attempts = job.attempts + 1;
  const entry = {
    updated_at: new Date().toISOString(),
    attempts,
    last_response_status: outcome.status,
    last_error: outcome.error,
  };
  if (outcome.delivered) return { disposition: { kind: 'done' }, entry: { ...entry, status: 'delivered' } };
  const delayMs = outcome.refused
    ? undefined
    : nextRetryDelay(retry, attempts, Date.parse(job.created_at), Date.now());
  if (delayMs === undefined)
    return { disposition: { kind: 'given_up' }, entry: { ...entry, status: 'failed' } };
  return {
    disposition: { kind: 'later', job: { ...job, attempts }, delayMs },
    entry: { ...entry, status: 'retrying' },
  };
}

/**
 * One delivery attempt per job, in order:
 * - a client with `clientConcurrency` attempts in flight gets its job back after the shortest wait, not
 *   counted as an attempt, so that a slow receiver never holds the worker's slots from other clients;
 * - a webhook removed or disabled since the event, or without a secret, ends the delivery as failed;
 * - the POST carries the Standard Webhooks headers, signed at the attempt;
 * - 2xx: delivered; a refused target: failed at once; otherwise retried with backoff until the retry window
 *   from the event ends, then given up (failed, and dead-lettered where the queue has dead letters);
 * - when Redis cannot answer, the job waits the shortest wait and comes back, not counted as an attempt.
 */
export function webhookWorker(deps: WorkerDeps): JobHandler {
  const inFlight = new Map<string, number>();
  const shortestWait = retryDelays(deps.retry)[0] ?? deps.retry.baseMs;
  const later = (job: WebhookJob): Disposition => ({ kind: 'later', job, delayMs: shortestWait });
  const record = logWriter(deps);

  const attempt = async (job: WebhookJob): Promise<Disposition> => {
    const now = new Date();
    const settings = await deps.settings.get(job.client_id);
    const hook = settings.webhooks?.find((candidate) => candidate.id === job.webhook_id);
    const secrets = hook?.enabled ? await deps.secrets.signing(job.client_id, job.webhook_id, now) : [];
    if (!hook?.enabled || secrets.length === 0) {
      await record(job, {
        updated_at: now.toISOString(),
        status: 'failed',
        attempts: job.attempts,
        last_response_status: null,
        last_error: hook ? 'webhook disabled or without a secret' : 'webhook removed',
      });
      return { kind: 'done' };
    }
    const outcome = await deps.poster.post({
      url: hook.url,
      headers: signedHeaders(job, secrets, now),
      body: job.body,
    });
    const { disposition, entry } = afterAttempt(job, outcome, deps.retry);
    const log = deps.logger.child({ delivery_id: job.delivery_id, client_id: job.client_id });
    if (entry.status === 'failed') log.warn({ entry }, 'webhook delivery given up');
    else if (entry.status === 'retrying') log.info({ entry }, 'webhook attempt failed; retried later');
    await record(job, entry);
    return disposition;
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
