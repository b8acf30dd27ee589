/**
 * A client's reports run one after another (issue #27 point 3). Rules:
 * - each client has its own queue: a report waits only for that client's earlier reports, never for another
 *   client's, so a client reporting at full rate holds at most one report's work (a few reads and writes of
 *   its own state) ahead of the other clients' checks on the event loop;
 * - a failed report does not stop the ones behind it; an idle client keeps no queue.
 */
export function oneReportAtATime(): <T>(client: string, report: () => Promise<T>) => Promise<T> {
  const tails = new Map<string, Promise<unknown>>();
  return (client, report) => {
    const previous = tails.get(client) ?? Promise.resolve();
    const run = previous.then(report, report);
    const tail = run.catch(() => undefined);
    tails.set(client, tail);
    void tail.then(() => {
      if (tails.get(client) === tail) tails.delete(client);
    });
    return run;
  };
}
