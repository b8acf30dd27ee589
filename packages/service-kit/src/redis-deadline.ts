import { Cluster, Redis, type Command } from 'ioredis';

/**
 * Rejects `command` ("Command timed out") unless Redis answered it within `timeoutMs` of its sending.
 *
 * Not ioredis's own `commandTimeout`: that one rejects as soon as its timer runs, and after the event loop
 * stalled (a loaded machine, a GC pause, a long synchronous step) timers run before the loop reads the
 * sockets, so it failed commands whose answer was already waiting unread. Here the expired timer waits for
 * the next immediate, which runs after that read: a command is failed only when Redis left it unanswered.
 */
function boundCommand(command: Command, timeoutMs: number): void {
  let answered = false;
  const timer = setTimeout(() => {
    setImmediate(() => {
      if (!answered) command.reject(new Error('Command timed out'));
    });
  }, timeoutMs);
  const settle = () => {
    answered = true;
    clearTimeout(timer);
  };
  command.promise.then(settle, settle);
}

/**
 * The client classes whose every command (single, pipelined or in a transaction) is bounded by
 * `timeoutMs`. `sendCommand` is where each one leaves, once, for either topology; a cluster passes it on to
 * its nodes' plain connections.
 */
export function boundedClients(timeoutMs: number): { Redis: typeof Redis; Cluster: typeof Cluster } {
  return {
    Redis: class extends Redis {
      override sendCommand(...args: Parameters<Redis['sendCommand']>): unknown {
        const sent = super.sendCommand(...args);
        boundCommand(args[0], timeoutMs);
        return sent;
      }
    },
    Cluster: class extends Cluster {
      override sendCommand(...args: Parameters<Cluster['sendCommand']>): unknown {
        const sent = super.sendCommand(...args);
        boundCommand(args[0], timeoutMs);
        return sent;
      }
    },
  };
}
