/**
 * How long a client's jobs wait in the gateway with none of its attempts ending: long enough for a healthy
 * receiver's attempts to keep ending meanwhile, short enough that a slow receiver's jobs soon stop holding
 * the worker's slots.
 */
const TURN_WAIT_MS = 1000;

interface Client {
  running: number;
  /** When the client last got a turn (an attempt started). */
  turnAt: number;
  waiting: ((turn: boolean) => void)[];
  timer?: NodeJS.Timeout;
}

/**
 * Each client's turns at delivery in this process:
 * - at most `share` attempts of a client in flight at once;
 * - a further job waits, first in first out, for one of them to end;
 * - when none has ended for TURN_WAIT_MS (a slow receiver), its waiting jobs and any further ones get no
 *   turn (`take` answers false), so that they go back to the queue instead of holding the worker's slots.
 */
export function clientTurns(share: number) {
  const clients = new Map<string, Client>();
  const expire = (client: Client) => {
    const left = client.turnAt + TURN_WAIT_MS - Date.now();
    client.timer = undefined;
    if (client.waiting.length === 0) return;
    if (left > 0) client.timer = setTimeout(() => expire(client), left);
    else for (const waiter of client.waiting.splice(0)) waiter(false);
  };
  return {
    /** Resolves true when the job's turn has come (call `release` after it), false when it gets none. */
    take(clientId: string): Promise<boolean> {
      const client = clients.get(clientId) ?? { running: 0, turnAt: 0, waiting: [] };
      clients.set(clientId, client);
      const now = Date.now();
      if (client.running < share) {
        client.running += 1;
        client.turnAt = now;
        return Promise.resolve(true);
      }
      if (now - client.turnAt >= TURN_WAIT_MS) return Promise.resolve(false);
      client.timer ??= setTimeout(() => expire(client), client.turnAt + TURN_WAIT_MS - now);
      return new Promise((resolve) => client.waiting.push(resolve));
    },
    /** Ends a turn: it passes to the client's next waiting job, if any. */
    release(clientId: string): void {
      const client = clients.get(clientId);
      if (!client) return;
      const next = client.waiting.shift();
      if (next) {
        client.turnAt = Date.now();
        return next(true);
      }
      client.running -= 1;
      if (client.running === 0) clients.delete(clientId);
    },
  };
}
