import { Resolver } from 'node:dns/promises';
import type { LookupMailServers, MailServers } from '../domain/mail-servers';

export interface MailServerLookupOptions {
  /** `ip` or `ip:port` (`[ipv6]:port`); empty: the system's resolvers. */
  servers: readonly string[];
  /** Budget of one lookup (MX, then A/AAAA); past it the outcome is `unknown`. */
  timeoutMs: number;
  cacheTtlMs: number;
  cacheSize: number;
  /** Called once per lookup outcome (metrics). */
  onLookup?: (outcome: MailServers['outcome'], cached: boolean) => void;
  now?: () => number;
}

export interface MailServerLookup {
  lookup: LookupMailServers;
  cacheSize(): number;
  /** Stops pending queries; their lookups resolve to `unknown`. */
  close(): void;
}

const NOT_FOUND = new Set(['ENOTFOUND']);
const NO_DATA = new Set(['ENODATA']);

function codeOf(error: unknown): string {
  return (error as { code?: string } | undefined)?.code ?? 'EUNKNOWN';
}

class DnsUnknown extends Error {}

/** Runs a query: records, `[]` for NOERROR without answers, `'nxdomain'`, or throws DnsUnknown. */
async function query<T>(run: () => Promise<T[]>): Promise<T[] | 'nxdomain'> {
  try {
    return await run();
  } catch (error) {
    const code = codeOf(error);
    if (NOT_FOUND.has(code)) return 'nxdomain';
    if (NO_DATA.has(code)) return [];
    throw new DnsUnknown(code);
  }
}

async function resolveMailServers(resolver: Resolver, domain: string): Promise<MailServers> {
  try {
    const mx = await query(() => resolver.resolveMx(domain));
    if (mx === 'nxdomain') return { outcome: 'nxdomain' };
    const hosts = mx.filter((record) => record.exchange !== '' && record.exchange !== '.');
    if (mx.length > 0 && hosts.length === 0) return { outcome: 'null_mx' };
    if (hosts.length > 0)
      return { outcome: 'mx', hosts: hosts.sort((a, b) => a.priority - b.priority).map((r) => r.exchange) };
    // RFC 5321 §5.1: no MX records, so the domain itself is the implicit MX if it has an address.
    const [a, aaaa] = await Promise.all([
      query(() => resolver.resolve4(domain)),
      query(() => resolver.resolve6(domain)),
    ]);
    if (a === 'nxdomain' && aaaa === 'nxdomain') return { outcome: 'nxdomain' };
    const addresses = (a === 'nxdomain' ? 0 : a.length) + (aaaa === 'nxdomain' ? 0 : aaaa.length);
    return addresses > 0 ? { outcome: 'implicit_mx' } : { outcome: 'no_mail_server' };
  } catch (error) {
    if (error instanceof DnsUnknown) return { outcome: 'unknown', error: error.message };
    throw error;
  }
}

async function withDeadline(lookup: Promise<MailServers>, timeoutMs: number): Promise<MailServers> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<MailServers>((resolve) => {
    timer = setTimeout(() => resolve({ outcome: 'unknown', error: 'ETIMEOUT' }), timeoutMs);
  });
  try {
    return await Promise.race([lookup, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * MX lookups over node:dns with the configured resolvers and timeout, behind a cache bounded in size
 * (least recently used entries go first) with a TTL. `unknown` outcomes are not cached, so a resolver
 * hiccup is retried by the next check; concurrent lookups of one domain share one query.
 */
export function createMailServerLookup(options: MailServerLookupOptions): MailServerLookup {
  // Two attempts of half the budget each (a lost UDP packet is retried); the deadline below bounds the rest.
  const resolver = new Resolver({ timeout: Math.max(25, Math.floor(options.timeoutMs / 2)), tries: 2 });
  if (options.servers.length > 0) resolver.setServers([...options.servers]);
  const now = options.now ?? Date.now;
  const cache = new Map<string, { servers: MailServers; expiresAt: number }>();
  const inFlight = new Map<string, Promise<MailServers>>();

  const remember = (domain: string, servers: MailServers) => {
    if (servers.outcome === 'unknown' || options.cacheSize === 0) return;
    cache.delete(domain);
    cache.set(domain, { servers, expiresAt: now() + options.cacheTtlMs });
    while (cache.size > options.cacheSize) {
      const oldest = cache.keys().next();
      if (oldest.done) break;
      cache.delete(oldest.value);
    }
  };

  const lookup: LookupMailServers = async (domain) => {
    const hit = cache.get(domain);
    if (hit && hit.expiresAt > now()) {
      cache.delete(domain);
      cache.set(domain, hit);
      options.onLookup?.(hit.servers.outcome, true);
      return hit.servers;
    }
    if (hit) cache.delete(domain);
    let pending = inFlight.get(domain);
    if (!pending) {
      pending = withDeadline(resolveMailServers(resolver, domain), options.timeoutMs).finally(() =>
        inFlight.delete(domain),
      );
      inFlight.set(domain, pending);
      const servers = await pending;
      remember(domain, servers);
      options.onLookup?.(servers.outcome, false);
      return servers;
    }
    return pending;
  };

  return { lookup, cacheSize: () => cache.size, close: () => resolver.cancel() };
}
