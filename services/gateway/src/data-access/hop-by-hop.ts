import type http from 'node:http';

/** Hop-by-hop headers of RFC 9110 §7.6.1, plus `Proxy-Connection` (a non-standard one clients still send). */
const HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
];

const FIXED = new Set(HOP_BY_HOP);

/** The fixed list and every header named in the message's own `Connection` header. */
function hopByHopNames(headers: http.IncomingHttpHeaders): string[] {
  const named = (headers.connection ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  return [...HOP_BY_HOP, ...named];
}

/**
 * Whether a header of this message is hop-by-hop (`hopByHopNames`), for a proxy that copies the others on
 * every request: the `Connection` header is parsed only when it names more than `keep-alive` or `close`.
 */
export function hopByHopTest(headers: http.IncomingHttpHeaders): (name: string) => boolean {
  const connection = headers.connection?.toLowerCase();
  if (connection === undefined || connection === 'keep-alive' || connection === 'close')
    return (name) => FIXED.has(name);
  const names = new Set(hopByHopNames(headers));
  return (name) => names.has(name);
}

/**
 * A proxy forwards no header meant for one connection only (RFC 9110 §7.6.1), in either direction. Towards
 * the upstream: the client's hop-by-hop headers are removed and Node's agent writes its own `Connection`.
 */
export function removeHopByHopHeaders(
  proxyReq: http.ClientRequest,
  incoming: http.IncomingHttpHeaders,
): void {
  for (const name of hopByHopNames(incoming)) proxyReq.removeHeader(name);
}

/**
 * Towards the client, for a proxied answer whose headers are copied (the token endpoints): the upstream's
 * hop-by-hop headers are dropped, and `Connection` is this server's: the kit's `close` while draining or
 * after a refusal, else what the client asked for (HTTP/1.1 keeps alive unless told `close`; 1.0 the reverse).
 * http-proxy would otherwise copy the upstream's `Connection: keep-alive`, overriding the kit's `close`.
 */
export function replaceHopByHopAnswerHeaders(
  answer: http.IncomingMessage,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): void {
  for (const name of hopByHopNames(answer.headers)) delete answer.headers[name];
  answer.headers.connection = connectionOf(req, res);
}

function connectionOf(req: http.IncomingMessage, res: http.ServerResponse): string {
  const ours = res.getHeader('connection');
  if (typeof ours === 'string') return ours;
  const asked = (req.headers.connection ?? '').toLowerCase();
  if (req.httpVersion === '1.0') return /\bkeep-alive\b/.test(asked) ? 'keep-alive' : 'close';
  return /\bclose\b/.test(asked) ? 'close' : 'keep-alive';
}
