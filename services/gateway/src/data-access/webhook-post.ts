import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { addressAllowed, targetUrlProblem, type TargetPolicy } from '../domain/webhook-target';

export interface AttemptOutcome {
  delivered: boolean;
  /** The receiver's status, when it answered. */
  status: number | null;
  /** Why it failed, for the delivery log (never the receiver's body). */
  error: string | null;
  /** The target is not allowed at all: retrying cannot help. */
  refused: boolean;
}

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface WebhookPoster {
  post(request: WebhookRequest): Promise<AttemptOutcome>;
  close(): void;
}

class TargetRefused extends Error {}

/** dns.lookup, refusing a name when any address it resolves to is not allowed (checked before connecting). */
function guardedLookup(policy: TargetPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const refused = addresses.find((entry) => !addressAllowed(entry.address, policy));
      if (refused)
        return callback(new TargetRefused(`${hostname} resolves to ${refused.address}, not allowed`), '', 0);
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(new Error(`${hostname} has no address`), '', 0);
      return callback(null, first.address, first.family);
    });
  };
}

const refusedOutcome = (error: string): AttemptOutcome => ({
  delivered: false,
  status: null,
  error,
  refused: true,
});

/**
 * One delivery attempt: a POST through keep-alive agents whose DNS lookup refuses internal addresses (a
 * literal address in the URL is checked here, as Node does not look it up). A 2xx answer within `timeoutMs` is
 * a delivery; a redirect is not followed (it is a failed attempt), nor is the answer's body read.
 */
export function webhookPoster(options: { timeoutMs: number; policy: TargetPolicy }): WebhookPoster {
  const agentOptions = { keepAlive: true, maxSockets: 16, lookup: guardedLookup(options.policy) };
  const agents = { 'http:': new http.Agent(agentOptions), 'https:': new https.Agent(agentOptions) };
  const post = ({ url, headers, body }: WebhookRequest): Promise<AttemptOutcome> => {
    const target = new URL(url);
    const problem = targetUrlProblem(target, options.policy);
    if (problem) return Promise.resolve(refusedOutcome(`target not allowed: ${problem}`));
    const send = target.protocol === 'https:' ? https.request : http.request;
    return new Promise((resolve) => {
      const request = send(target, {
        method: 'POST',
        agent: agents[target.protocol as 'http:' | 'https:'],
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      });
      const timer = setTimeout(
        () => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)),
        options.timeoutMs,
      );
      request.on('response', (response) => {
        clearTimeout(timer);
        response.resume();
        const status = response.statusCode ?? 0;
        const delivered = status >= 200 && status < 300;
        resolve({ delivered, status, error: delivered ? null : `answered ${status}`, refused: false });
      });
      request.on('error', (error) => {
        clearTimeout(timer);
        resolve(
          error instanceof TargetRefused
            ? refusedOutcome(`target not allowed: ${error.message}`)
            : { delivered: false, status: null, error: error.message, refused: false },
        );
      });
      request.end(body);
    });
  };
  return {
    post,
    close: () => Object.values(agents).forEach((agent) => agent.destroy()),
  };
}
