import { readFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';

/**
 * Whether a server may listen on a port of every interface (as the services do), tried and closed again.
 * Not `once(server, 'listening')`: that promise rejects on the server's 'error', and a port in use would
 * then fail the caller instead of sending it to the next candidate.
 */
async function bindable(port: number): Promise<number | undefined> {
  const server = createServer();
  const outcome = new Promise<boolean>((resolve) => {
    server.once('listening', () => resolve(true));
    server.once('error', () => resolve(false));
  });
  server.listen(port, '0.0.0.0');
  const listening = await outcome;
  const address = server.address();
  const bound = listening && typeof address === 'object' && address ? address.port : undefined;
  if (listening) await new Promise((resolve) => server.close(resolve));
  return bound;
}

/** The lowest port Linux hands out to outgoing connections (`ip_local_port_range`); undefined elsewhere. */
function ephemeralLow(): number | undefined {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 20_000 ? low : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The one port of the range below that `fetch` refuses ("bad port", the Fetch standard's list of ports of
 * other protocols): a service there could not be reached by the tests.
 */
const FETCH_BAD_PORT = 10_080;

/**
 * A free TCP port for a service that starts later: between 10,000 and the ephemeral range, where there is
 * one. A port the OS picked from that range can be taken meanwhile by any outgoing connection of a parallel
 * test or bench (Redis, keep-alive pools), and the service then fails with EADDRINUSE (seen in a CI run).
 * Elsewhere the OS picks.
 */
export async function freePort(): Promise<number> {
  const low = ephemeralLow();
  if (low !== undefined)
    for (let attempt = 0; attempt < 50; attempt++) {
      const port = 10_000 + Math.floor(Math.random() * (low - 10_000));
      if (port !== FETCH_BAD_PORT && (await bindable(port)) !== undefined) return port;
    }
  return (await bindable(0)) ?? 0;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(500);
    socket.once('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** Waits until something accepts TCP connections on a loopback port (a server that has no `/readyz`). */
export async function waitForPort(port: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await accepts(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nothing accepted connections on 127.0.0.1:${port} within ${timeoutMs} ms`);
}
