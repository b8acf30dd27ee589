import { benchDetectorFairness } from '@spam-check/process-kit';
import { startLoopbackDnsServer, type ZoneEntry } from '../test/integration/support/dns-server';
import { BENCH_ADDRESSES, BENCH_MX_DOMAINS } from './addresses';

const HEAVY_BATCHES = 5;
const HEAVY_ITEMS = 1000;
const SECONDS = 12;
/** Distinct addresses (no check cache answers them), on the bench domains (the DNS cache does, once warm). */
const ADDRESSES = Array.from({ length: HEAVY_ITEMS }, (_, i) => {
  const address = BENCH_ADDRESSES[i % BENCH_ADDRESSES.length]!;
  const at = address.lastIndexOf('@');
  return at > 0 ? `${address.slice(0, at)}.${i}${address.slice(at)}` : address;
});
/** The public batch (`emails`), and the detector's own (`items`), which the gateway sends it. */
const HEAVY_BATCH = JSON.stringify({ emails: ADDRESSES });
const HEAVY_ITEMS_BODY = JSON.stringify({ items: ADDRESSES.map((email) => ({ email })) });
const SMALL = JSON.stringify({ email: 'anna.schmidt@gmail.com' });

/**
 * Fairness between clients for mail: 5 batches of 1,000 addresses next to another client's single mail check,
 * DNS answered by a loopback server here (an MX for every bench domain). Aim: p95 under 100 ms next to the
 * heavy client.
 */
export async function benchFairness(): Promise<void> {
  const zone: Record<string, ZoneEntry> = {};
  for (const domain of BENCH_MX_DOMAINS)
    zone[domain] = { mx: [{ preference: 10, exchange: `mx.${domain}` }] };
  const dns = await startLoopbackDnsServer(zone);
  console.log(
    `fairness: mail checks of one client while another keeps ${HEAVY_BATCHES} batches of ${HEAVY_ITEMS} addresses running (${SECONDS} s each):`,
  );
  try {
    await benchDetectorFairness({
      service: 'email-detector',
      env: { LOG_LEVEL: 'warn', EMAIL_DNS_SERVERS: dns.address, REDIS_URL: undefined, AMQP_URL: undefined },
      bodies: { small: SMALL, detectorBatch: HEAVY_ITEMS_BODY, gatewayBatch: HEAVY_BATCH },
      heavyConcurrency: HEAVY_BATCHES,
      seconds: SECONDS,
      warmUp: { small: 0, batches: 1 },
    });
  } finally {
    await dns.close();
  }
}
