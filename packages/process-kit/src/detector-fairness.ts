import { fairnessLine, measureFairness, postJson, startTwoClientStack, type Exchange } from './fairness';
import { spawnService, stopService, waitForReady } from './services';
import { freePort } from './ports';

export interface DetectorFairnessBench {
  service: 'email-detector' | 'text-detector';
  /** Added to every service's environment (the detector's, and auth's and the gateway's in the second round). */
  env: Record<string, string | undefined>;
  /** The light client's check, and the heavy client's batch as the detector takes it (`items`) and as the public API does. */
  bodies: { small: string; detectorBatch: string; gatewayBatch: string };
  heavyConcurrency: number;
  seconds: number;
  /** What each round sends first, so that neither measures a cold start. */
  warmUp: { small: number; batches: number };
}

/**
 * Fairness between clients for one detector: another client's small check while one client keeps
 * `heavyConcurrency` batches running; the services as their own processes over HTTP. Rounds: against the
 * detector (the client named in `X-Client-Id`, as the gateway does), then through the gateway (auth, gateway
 * and detector, each client with its own token); each first alone, then next to the heavy client. Any failed
 * exchange sets the exit code.
 */
export async function benchDetectorFairness(bench: DetectorFairnessBench): Promise<void> {
  const rounds = [...(await atTheDetector(bench)), ...(await throughTheGateway(bench))];
  if (rounds.some((round) => round.failed > 0)) process.exitCode = 1;
}

async function atTheDetector(bench: DetectorFairnessBench) {
  const detector = spawnService(bench.service, bench.env, await freePort());
  try {
    await waitForReady(detector, { timeoutMs: 120_000 });
    return await pair(bench, 'detector', {
      light: () => postJson(`${detector.url}/v1/check`, { 'x-client-id': 'light' }, bench.bodies.small),
      heavy: () =>
        postJson(`${detector.url}/v1/check/batch`, { 'x-client-id': 'heavy' }, bench.bodies.detectorBatch),
    });
  } finally {
    await stopService(detector);
  }
}

async function throughTheGateway(bench: DetectorFairnessBench) {
  const { stack, authorization } = await startTwoClientStack([bench.service], {
    ...bench.env,
    RATE_LIMIT_REQUESTS: '0',
  });
  const check = `${stack.gateway}/api/v1/spam/${bench.service === 'email-detector' ? 'mail' : 'text'}`;
  try {
    return await pair(bench, 'through the gateway', {
      light: () => postJson(check, { authorization: authorization.light }, bench.bodies.small),
      heavy: () =>
        postJson(`${check}/batch`, { authorization: authorization.heavy }, bench.bodies.gatewayBatch),
    });
  } finally {
    await stack.stop();
  }
}

/** The warm-up, a round alone (the baseline), then a round next to the heavy client. */
async function pair(
  bench: DetectorFairnessBench,
  label: string,
  exchanges: { light: Exchange; heavy: Exchange },
) {
  for (let i = 0; i < bench.warmUp.small; i++) await exchanges.light();
  for (let i = 0; i < bench.warmUp.batches; i++) await exchanges.heavy();
  const alone = await measureFairness({ ...exchanges, heavyConcurrency: 0, seconds: 4 });
  console.log(fairnessLine(`${label}, alone`, alone));
  const loaded = await measureFairness({
    ...exchanges,
    heavyConcurrency: bench.heavyConcurrency,
    seconds: bench.seconds,
  });
  console.log(fairnessLine(`${label}, next to the heavy client`, loaded));
  return [alone, loaded];
}
