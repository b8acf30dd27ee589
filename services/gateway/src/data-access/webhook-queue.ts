import type { Logger } from '@spam-check/service-kit';

/** A delivery as it travels through the queue: the body is fixed when the event happens. */
export interface WebhookJob {
  delivery_id: string;
  client_id: string;
  webhook_id: string;
  type: string;
  created_at: string;
  body: string;
  /** Attempts made so far. */
  attempts: number;
}

/** What the worker wants done with a job it handled. */
export type Disposition =
  { kind: 'done' } | { kind: 'later'; job: WebhookJob; delayMs: number } | { kind: 'given_up' };

export type JobHandler = (job: WebhookJob) => Promise<Disposition>;

export interface WebhookQueue {
  /** Queues a new delivery; resolves once the queue holds it (a broker has confirmed it). */
  publish(job: WebhookJob): Promise<void>;
  /** Hands each job to `handler`, at most `concurrency` at a time. */
  consume(handler: JobHandler): void;
  /** Whether deliveries are being taken and handed out (readiness). */
  connected(): boolean;
  close(): Promise<void>;
  /** Where jobs live: "memory" is lost on restart (embedded mode). */
  readonly kind: 'rabbitmq' | 'memory';
}

/**
 * The queue in embedded mode (no AMQP_URL): timers in this process. Lost when the process ends; documented
 * as such.
 */
export function memoryWebhookQueue(options: { concurrency: number; logger: Logger }): WebhookQueue {
  const timers = new Set<NodeJS.Timeout>();
  const waiting: WebhookJob[] = [];
  let handler: JobHandler | undefined;
  let running = 0;
  let closed = false;

  const schedule = (job: WebhookJob, delayMs: number) => {
    if (closed) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      waiting.push(job);
      pump();
    }, delayMs);
    timers.add(timer);
  };
  const pump = () => {
    while (handler && !closed && running < options.concurrency) {
      const job = waiting.shift();
      if (!job) return;
      running += 1;
      handler(job)
        .then((disposition) => {
          if (disposition.kind === 'later') schedule(disposition.job, disposition.delayMs);
        })
        .catch((error: unknown) => {
          options.logger.error(
            { err: error, delivery_id: job.delivery_id },
            'webhook job failed; tried again',
          );
          schedule(job, 1000);
        })
        .finally(() => {
          running -= 1;
          pump();
        });
    }
  };
  return {
    kind: 'memory',
    publish: async (job) => schedule(job, 0),
    consume(next) {
      handler = next;
      pump();
    },
    connected: () => !closed,
    close: async () => {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
