import type http from 'node:http';

/**
 * The client's address: the socket's, or with `trustedHops` proxies of ours in front of the service, the
 * `X-Forwarded-For` entry that many hops back (what those proxies appended; anything before it was written
 * by the client and is ignored), as Express's numeric `trust proxy` does.
 */
export function clientAddress(req: http.IncomingMessage, trustedHops: number): string {
  const socket = req.socket.remoteAddress ?? 'unknown';
  if (trustedHops === 0) return socket;
  const chain = [req.headers['x-forwarded-for'] ?? []]
    .flat()
    .join(',')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  return chain[chain.length - trustedHops] ?? chain[0] ?? socket;
}
