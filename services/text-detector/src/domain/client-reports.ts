import { AppError } from '@spam-check/service-kit';

/** Runs `report` (the whole of one report's work) in `client`'s turn. */
export type ReportsInTurn = <T>(client: string, report: () => Promise<T>) => Promise<T>;

const wait = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms).unref();
  });

/**
 * A client's reports run one after another, at a pace. Rules:
 * - each client has its own queue: a report waits only for that client's earlier reports, never for another
 *   client's;
 * - one client's reports start at least `1 / perSecond` s apart (`TEXT_FEEDBACK_REPORTS_PER_SECOND`), so a
 *   client reporting at full rate takes a bounded share of the detector's one event loop (a report's work: the
 *   text's features, a few reads and writes of its own state) and the other clients' checks keep their
 *   latency;
 * - a client may have at most `queueSeconds` of reports waiting; the next one is refused with RATE_LIMITED
 *   (429, `Retry-After`: when there is room again), before any of its work is done, so a waiting report is
 *   answered well within the gateway's deadline and a refused one leaves nothing behind;
 * - a failed report does not stop the ones behind it; a client keeps its queue only until its pace allows the
 *   next report (an idle client keeps nothing).
 */
export function reportsInTurn({
  perSecond,
  queueSeconds,
}: {
  perSecond: number;
  queueSeconds: number;
}): ReportsInTurn {
  const spacing = 1000 / perSecond;
  const maxWaiting = Math.max(1, Math.floor(perSecond * queueSeconds));
  const queues = new Map<string, { tail: Promise<unknown>; waiting: number }>();
  return (client, report) => {
    let queue = queues.get(client);
    if (!queue) queues.set(client, (queue = { tail: Promise.resolve(), waiting: 0 }));
    if (queue.waiting >= maxWaiting) {
      const seconds = Math.ceil(((queue.waiting - maxWaiting + 1) * spacing) / 1000);
      return Promise.reject(new AppError('RATE_LIMITED', { headers: { 'Retry-After': String(seconds) } }));
    }
    const own = queue;
    own.waiting++;
    const previous = own.tail;
    const run = previous.then(() => {
      own.waiting--;
      return report();
    });
    // The next report starts once this one has ended and its spacing has passed since it started.
    const tail = previous.then(() => Promise.all([run.catch(() => undefined), wait(spacing)]));
    own.tail = tail;
    void tail.then(() => {
      if (own.tail === tail) queues.delete(client);
    });
    return run;
  };
}
