interface Client {
  /** The cost of this client's checks running now. */
  running: number;
  waiting: { cost: number; start: () => void }[];
  /** A check of this client ended in this turn of the event loop: the next ones start in the next turn. */
  turnDue: boolean;
}

/**
 * Runs `work` as one of `client`'s checks, costing `cost` (a text check: its characters; a mail check: 1).
 * Checks without a client id (direct calls inside the cluster) share one queue.
 */
export type FairShare = <Result>(
  client: string | undefined,
  cost: number,
  work: () => Promise<Result>,
) => Promise<Result>;

/**
 * Per-client fairness of a detector's work, which is CPU on one event loop (and, for mail, DNS lookups).
 * Rules:
 * - each client may have checks of at most `budget` cost running at once, and always one check;
 * - a check over its client's budget waits in the client's own queue, in order; it never waits for other
 *   clients' checks, so one client's heavy batches hold at most `budget` of work ahead of another client's
 *   small check, on HTTP and RPC alike;
 * - once a check of a client ends, that client's next checks (waiting, or arriving in the same turn, as the
 *   next items of its batches do) start from `setImmediate`, after the I/O that arrived meanwhile (other
 *   clients' requests, `/readyz`): never in the turn of the check that made room for them, so a client's
 *   checks that finish without waiting for I/O cannot follow one another in one turn of the event loop.
 */
export function fairShare(budget: number): FairShare {
  const clients = new Map<string, Client>();
  const fits = (client: Client, cost: number) => client.running === 0 || client.running + cost <= budget;

  const startWaiting = (key: string, client: Client) => {
    client.turnDue = false;
    while (client.waiting.length > 0 && fits(client, client.waiting[0]!.cost))
      client.waiting.shift()!.start();
    if (client.running === 0 && client.waiting.length === 0 && clients.get(key) === client)
      clients.delete(key);
  };

  return <Result>(clientId: string | undefined, checkCost: number, work: () => Promise<Result>) => {
    const key = clientId ?? '';
    let client = clients.get(key);
    if (!client) clients.set(key, (client = { running: 0, waiting: [], turnDue: false }));
    const cost = Math.max(1, checkCost);
    const owner = client;
    const run = async () => {
      owner.running += cost;
      try {
        return await work();
      } finally {
        owner.running -= cost;
        if (!owner.turnDue) {
          owner.turnDue = true;
          setImmediate(() => startWaiting(key, owner));
        }
      }
    };
    if (!owner.turnDue && owner.waiting.length === 0 && fits(owner, cost)) return run();
    return new Promise<Result>((resolve, reject) => {
      owner.waiting.push({ cost, start: () => void run().then(resolve, reject) });
    });
  };
}
