/** What a check costs in the fair share: the characters it reads. */
interface Sized {
  clientId?: string | undefined;
  title: string;
  body: string;
  sub_title?: string | undefined;
}

interface Client {
  /** Characters of this client's checks running now. */
  running: number;
  waiting: { cost: number; start: () => void }[];
}

/**
 * Per-client fairness of the text detector's work, which is CPU on one event loop. Rules:
 * - a check costs its characters (title, subtitle and body); each client may have at most `budget`
 *   characters of checks running at once, and always one check, however long;
 * - a check over its client's budget waits in the client's own queue, in order; it never waits for other
 *   clients' checks, so one client's heavy batches hold at most `budget` characters of work ahead of another
 *   client's small check;
 * - a waiting check is started from `setImmediate`, after the I/O that arrived meanwhile (other clients'
 *   requests, `/readyz`), never in the same turn as the check that made room for it.
 * Checks without a client id (direct calls inside the cluster) share one queue.
 */
export function fairShare<Input extends Sized, Result>(
  budget: number,
  check: (input: Input) => Promise<Result>,
): (input: Input) => Promise<Result> {
  const clients = new Map<string, Client>();
  const fits = (client: Client, cost: number) => client.running === 0 || client.running + cost <= budget;

  const startWaiting = (key: string, client: Client) => {
    while (client.waiting.length > 0 && fits(client, client.waiting[0]!.cost))
      client.waiting.shift()!.start();
    if (client.running === 0 && client.waiting.length === 0 && clients.get(key) === client)
      clients.delete(key);
  };

  return (input) => {
    const key = input.clientId ?? '';
    let client = clients.get(key);
    if (!client) clients.set(key, (client = { running: 0, waiting: [] }));
    const cost = Math.max(1, input.title.length + input.body.length + (input.sub_title?.length ?? 0));
    const owner = client;
    const run = async () => {
      owner.running += cost;
      try {
        return await check(input);
      } finally {
        owner.running -= cost;
        setImmediate(() => startWaiting(key, owner));
      }
    };
    if (owner.waiting.length === 0 && fits(owner, cost)) return run();
    return new Promise<Result>((resolve, reject) => {
      owner.waiting.push({ cost, start: () => void run().then(resolve, reject) });
    });
  };
}
