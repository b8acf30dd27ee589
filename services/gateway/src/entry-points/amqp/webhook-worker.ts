import type { ClientSettings, WebhookDelivery } from '@spam-check/contracts';
import { webhookSignatureHeader } from '@spam-check/contracts/webhook-signature';
import type { Logger } from '@spam-check/service-kit';
import type { WebhookDeliveryLog } from '../../data-access/webhook-deliveries';
import type { AttemptOutcome, WebhookPoster } from '../../data-access/webhook-post';
import type { Disposition, JobHandler, WebhookJob } from '../../data-access/webhook-queue';
import type { WebhookSecrets } from '../../data-access/webhook-secrets';
import { nextRetryDelay, retryDelays, type RetryPolicy } from '../../domain/webhook-retry';
import { clientTurns } from './client-turns';

export interface WorkerDeps {
  settings: { get(clientId: string): Promise<ClientSettings> };
  secrets: Pick<WebhookSecrets, 'signing'>;
  deliveries: WebhookDeliveryLog;
  poster: WebhookPoster;
  retry: RetryPolicy;
  /** Attempts of one client in flight at once in this process; more wait for a turn (`client-turns.ts`). */
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
 * - a client with `clientConcurrency` attempts in flight has its next jobs wait for one of them to end; when
 *   none ends for a while (a slow receiver), they come back after the shortest wait, not counted as an
 *   attempt, so that a slow receiver does not hold the worker's slots from other clients (`client-turns.ts`);
 * - a webhook removed or disabled since the event, or without a secret, ends the delivery as failed;
 * - the POST carries the Standard Webhooks headers, signed at the attempt;
 * - 2xx: delivered; a refused target: failed at once; otherwise retried with backoff until the retry window
 *   from the event ends, then given up (failed, and dead-lettered where the queue has dead letters);
 * - when Redis cannot answer, the job waits the shortest wait and comes back, not counted as an attempt.
 */
export function webhookWorker(deps: WorkerDeps): JobHandler {
  const turns = clientTurns(deps.clientConcurrency);
  const shortestWait = retryDelays(deps.retry)[0] ?? deps.retry.baseMs;
  const later = (job: WebhookJob): Disposition => ({ kind: 'later', job, delayMs: shortestWait });
  const record = logWriter(deps);

  /** The attempt, without the log write, which waits for no turn. */
  const attempt = async (job: WebhookJob): Promise<{ disposition: Disposition; entry: Entry }> => {
    const now = new Date();
    const settings = await deps.settings.get(job.client_id);
    const hook = settings.webhooks?.find((candidate) => candidate.id === job.webhook_id);
    const secrets = hook?.enabled ? await deps.secrets.signing(job.client_id, job.webhook_id, now) : [];
    if (!hook?.enabled || secrets.length === 0) {
      const entry: Entry = {
        updated_at: now.toISOString(),
        status: 'failed',
        attempts: job.attempts,
        last_response_status: null,
        last_error: hook ? 'webhook disabled or without a secret' : 'webhook removed',
      };
      return { disposition: { kind: 'done' }, entry };
    }
    const outcome = await deps.poster.post({
      url: hook.url,
      headers: signedHeaders(job, secrets, now),
      body: job.body,
    });
    const after = afterAttempt(job, outcome, deps.retry);
    const about = { delivery_id: job.delivery_id, client_id: job.client_id, entry: after.entry };
    if (after.entry.status === 'failed') deps.logger.warn(about, 'webhook delivery given up');
    else if (after.entry.status === 'retrying')
      deps.logger.info(about, 'webhook attempt failed; retried later');
    return after;
  };

  return async (job) => {
    if (!(await turns.take(job.client_id))) return later(job);
    let done: { disposition: Disposition; entry: Entry };
    try {
      done = await attempt(job);
    } catch (error) {
      deps.logger.warn({ err: error, delivery_id: job.delivery_id }, 'webhook attempt not made; tried again');
      return later(job);
    } finally {
      turns.release(job.client_id);
    }
    // Written before the job is settled, so that a retry's entry never lands before this one.
    await record(job, done.entry);
    return done.disposition;
  };
}
