import { freePort, spawnService, stopService, waitForReady } from '@spam-check/process-kit';
import autocannon from 'autocannon';
import { startLoopbackDnsServer, type ZoneEntry } from '../test/integration/support/dns-server';
import { BENCH_ADDRESSES, BENCH_MX_DOMAINS } from './addresses';

/**
 * HTTP latency p50/p99 of POST /v1/check with a warm DNS cache: the service in its own process (as `pnpm start`
 * runs it, no Redis or RabbitMQ), pointed at a loopback DNS server with an MX for every bench domain; the DNS
 * server and autocannon run here.
 */
export async function benchHttp(): Promise<void> {
  const zone: Record<string, ZoneEntry> = {};
  for (const domain of BENCH_MX_DOMAINS)
    zone[domain] = { mx: [{ preference: 10, exchange: `mx.${domain}` }] };
  const dns = await startLoopbackDnsServer(zone);
  const service = spawnService(
    'email-detector',
    { LOG_LEVEL: 'silent', EMAIL_DNS_SERVERS: dns.address, REDIS_URL: undefined, AMQP_URL: undefined },
    await freePort(),
  );
  try {
    await waitForReady(service);
    const bodies = BENCH_ADDRESSES.map((email) => JSON.stringify({ email }));
    for (const body of bodies)
      await fetch(`${service.url}/v1/check`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
    const result = await autocannon({
      url: service.url,
      connections: 10,
      duration: 10,
      requests: bodies.map((body) => ({
        method: 'POST' as const,
        path: '/v1/check',
        headers: { 'content-type': 'application/json' },
        body,
      })),
    });
    const errors = result.errors + result.non2xx;
    console.log(
      `email-detector HTTP (warm DNS cache, 10 connections, 10 s): p50 ${result.latency.p50} ms, ` +
        `p99 ${result.latency.p99} ms, ${Math.round(result.requests.average)} req/s, ${errors} errors`,
    );
    if (errors > 0) process.exitCode = 1;
  } finally {
    await stopService(service);
    await dns.close();
  }
}
