import { createLogger, createMetrics, createReadiness, serve } from '@spam-check/service-kit';
import { createApp } from '../src/app';
import { loadServiceConfig } from '../src/config';
import { createEmailChecker } from '../src/email-check-deps';
import { startLoopbackDnsServer, type ZoneEntry } from '../test/support/dns-server';
import { BENCH_MX_DOMAINS } from './addresses';

/**
 * Child process of the HTTP bench: a loopback DNS server with an MX for every bench domain, and the detector
 * on 127.0.0.1 pointed at it. Sends `{port}` to the parent, stops on 'stop'.
 */
async function main(): Promise<void> {
  const zone: Record<string, ZoneEntry> = {};
  for (const domain of BENCH_MX_DOMAINS)
    zone[domain] = { mx: [{ preference: 10, exchange: `mx.${domain}` }] };
  const dns = await startLoopbackDnsServer(zone);
  const config = loadServiceConfig({ LOG_LEVEL: 'silent', EMAIL_DNS_SERVERS: dns.address });
  const logger = createLogger({ service: 'email-detector', level: 'silent' });
  const metrics = createMetrics('email-detector');
  const readiness = createReadiness();
  const checker = createEmailChecker(config, metrics);
  const app = createApp({ config, logger, metrics, readiness, checker });
  const service = await serve(app, { port: 0, host: '127.0.0.1', logger, readiness });
  process.on('message', (message) => {
    if (message !== 'stop') return;
    void service.stop().then(async () => {
      checker.mailServers?.close();
      await dns.close();
      process.exit(0);
    });
  });
  process.send?.({ port: service.port });
}

void main();
