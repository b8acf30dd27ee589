import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServiceName } from './services';
import { startStack, type Stack } from './stack';
import { percentile } from './stats';

/** One HTTP exchange of a fairness round: resolves with the answer's status once its body is read. */
export type Exchange = () => Promise<number>;

export interface FairnessLoad {
  /** One small check of the client that should not notice the other. */
  light: Exchange;
  /** One heavy request of the other client; `heavyConcurrency` of them are kept running for the round. */
  heavy: Exchange;
  heavyConcurrency: number;
  seconds: number;
}

export interface FairnessFigures {
  /** The light client's round trips, in ms. */
  latencies: number[];
  heavyDone: number;
  /** Exchanges of either client that did not answer 200. */
  failed: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One client's small checks, one at a time with 20 ms between them, while another client keeps
 * `heavyConcurrency` heavy requests running (or, with `heavyConcurrency` 0, alone: the baseline). The light
 * client starts 0.5 s after the heavy one, so its checks meet the heavy requests in every phase.
 */
export async function measureFairness(load: FairnessLoad): Promise<FairnessFigures> {
  const deadline = Date.now() + load.seconds * 1000;
  let heavyDone = 0;
  let failed = 0;
  const heavy = Array.from({ length: load.heavyConcurrency }, async () => {
    while (Date.now() < deadline) {
      if ((await load.heavy()) !== 200) failed++;
      heavyDone++;
    }
  });
  const latencies: number[] = [];
  if (load.heavyConcurrency > 0) await sleep(500);
  while (Date.now() < deadline) {
    const started = performance.now();
    if ((await load.light()) !== 200) failed++;
    latencies.push(performance.now() - started);
    await sleep(20);
  }
  await Promise.all(heavy);
  return { latencies, heavyDone, failed };
}

/** One line of a fairness bench: the light client's p50, p95 and max, the heavy requests done, the failures. */
export function fairnessLine(label: string, figures: FairnessFigures): string {
  const { latencies, heavyDone, failed } = figures;
  const ms = (p: number) => `${percentile(latencies, p).toFixed(0)} ms`;
  return (
    `  ${label.padEnd(52)} small checks ${String(latencies.length).padStart(4)}: p50 ${ms(0.5)}, ` +
    `p95 ${ms(0.95)}, max ${Math.max(...latencies).toFixed(0)} ms; heavy requests done ${heavyDone}, ` +
    `failed ${failed}`
  );
}

/** A JSON POST, its body read; resolves with the status. */
export async function postJson(url: string, headers: Record<string, string>, body: string): Promise<number> {
  const answer = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  await answer.arrayBuffer();
  return answer.status;
}

export interface TwoClientStack {
  stack: Stack;
  /** `Authorization` headers of the two clients (`light` and `heavy`, each its own OAuth client). */
  authorization: { light: string; heavy: string };
}

/**
 * The stack (auth, the gateway and `services`) in embedded mode with two OAuth clients of their own,
 * `light` and `heavy`, each with a client-credentials token: the gateway names them to the detectors, whose
 * per-client shares then tell them apart. `env` is added to every service's environment.
 */
export async function startTwoClientStack(
  services: readonly ServiceName[],
  env: Record<string, string | undefined>,
  nodeArgs: Partial<Record<ServiceName, readonly string[]>> = {},
): Promise<TwoClientStack> {
  const dir = mkdtempSync(join(tmpdir(), 'fairness-'));
  const secrets = { light: randomBytes(16).toString('hex'), heavy: randomBytes(16).toString('hex') };
  const bootstrap = join(dir, 'bootstrap.json');
  writeFileSync(
    bootstrap,
    JSON.stringify({
      clients: Object.entries(secrets).map(([id, secret]) => ({
        id,
        secret,
        grants: ['client_credentials'],
        scopes: ['spam:check'],
      })),
      users: [],
    }),
  );
  try {
    const stack = await startStack(
      { REDIS_URL: undefined, AMQP_URL: undefined, AUTH_BOOTSTRAP_FILE: bootstrap, ...env },
      { services: ['auth', 'gateway', ...services], readyTimeoutMs: 120_000, nodeArgs },
    );
    const token = async (id: 'light' | 'heavy') => {
      const answer = await fetch(`${stack.gateway}/oauth/token`, {
        method: 'POST',
        headers: {
          Authorization: `Basic ${Buffer.from(`${id}:${secrets[id]}`).toString('base64')}`,
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        body: 'grant_type=client_credentials&scope=spam%3Acheck',
      });
      const body = (await answer.json()) as { access_token?: string };
      if (!body.access_token) throw new Error(`no token for ${id}: ${answer.status} ${JSON.stringify(body)}`);
      return `Bearer ${body.access_token}`;
    };
    return { stack, authorization: { light: await token('light'), heavy: await token('heavy') } };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
