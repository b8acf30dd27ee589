import {
  fairnessLine,
  freePort,
  measureFairness,
  postJson,
  spawnService,
  startTwoClientStack,
  stopService,
  waitForReady,
  type FairnessFigures,
} from '@spam-check/process-kit';
import { startLoopbackDnsServer, type ZoneEntry } from '../test/support/dns-server';
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

/** A round alone (the baseline), then a round next to the heavy client. */
async function pair(
  label: string,
  light: () => Promise<number>,
  heavy: () => Promise<number>,
): Promise<FairnessFigures[]> {
  const alone = await measureFairness({ light, heavy, heavyConcurrency: 0, seconds: 4 });
  console.log(fairnessLine(`${label}, alone`, alone));
  const loaded = await measureFairness({ light, heavy, heavyConcurrency: HEAVY_BATCHES, seconds: SECONDS });
  console.log(fairnessLine(`${label}, next to the heavy client`, loaded));
  return [alone, loaded];
}

/**
 * Issue #29 D for mail: another client's single mail check while one client keeps 5 batches of 1,000
 * addresses running at once; the services as their own processes over HTTP, DNS answered by a loopback
 * server here (an MX for every bench domain). Rounds: against the e-mail detector (the client named in
 * `X-Client-Id`, as the gateway does), then through the gateway (auth, gateway and detector, each client with
 * its own token); each first alone, then next to the heavy client. Aim: p95 under 100 ms next to it.
 */
export async function benchFairness(): Promise<void> {
  const zone: Record<string, ZoneEntry> = {};
  for (const domain of BENCH_MX_DOMAINS)
    zone[domain] = { mx: [{ preference: 10, exchange: `mx.${domain}` }] };
  const dns = await startLoopbackDnsServer(zone);
  const env = {
    LOG_LEVEL: 'warn',
    EMAIL_DNS_SERVERS: dns.address,
    REDIS_URL: undefined,
    AMQP_URL: undefined,
  };
  console.log(
    `fairness: mail checks of one client while another keeps ${HEAVY_BATCHES} batches of ${HEAVY_ITEMS} addresses running (${SECONDS} s each):`,
  );
  const rounds: FairnessFigures[] = [];
  try {
    const detector = spawnService('email-detector', env, await freePort());
    try {
      await waitForReady(detector, { timeoutMs: 60_000 });
      await postJson(`${detector.url}/v1/check/batch`, { 'x-client-id': 'heavy' }, HEAVY_ITEMS_BODY);
      rounds.push(
        ...(await pair(
          'detector',
          () => postJson(`${detector.url}/v1/check`, { 'x-client-id': 'light' }, SMALL),
          () => postJson(`${detector.url}/v1/check/batch`, { 'x-client-id': 'heavy' }, HEAVY_ITEMS_BODY),
        )),
      );
    } finally {
      await stopService(detector);
    }
    const { stack, authorization } = await startTwoClientStack(['email-detector'], {
      ...env,
      RATE_LIMIT_REQUESTS: '0',
    });
    try {
      const light = { authorization: authorization.light };
      const heavy = { authorization: authorization.heavy };
      await postJson(`${stack.gateway}/api/v1/spam/mail/batch`, heavy, HEAVY_BATCH);
      rounds.push(
        ...(await pair(
          'through the gateway',
          () => postJson(`${stack.gateway}/api/v1/spam/mail`, light, SMALL),
          () => postJson(`${stack.gateway}/api/v1/spam/mail/batch`, heavy, HEAVY_BATCH),
        )),
      );
    } finally {
      await stack.stop();
    }
  } finally {
    await dns.close();
  }
  if (rounds.some((round) => round.failed > 0)) process.exitCode = 1;
}
