import { Agent, request } from 'node:http';
import {
  freePort,
  percentile,
  processCpuSeconds,
  spawnService,
  stopService,
  waitForReady,
} from '@spam-check/process-kit';
import { TEXT_2KB } from './checks';

const CONNECTIONS = 8;
const LOAD_S = 6;
const ONE_AT_A_TIME = 2000;
const BODY = JSON.stringify(TEXT_2KB);

/** One `POST /v1/check` on a keep-alive connection: its round trip in ms. */
function roundTrip(url: URL, agent: Agent): Promise<number> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json' } });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => {
        if (res.statusCode === 200) resolve(Number(process.hrtime.bigint() - started) / 1e6);
        else reject(new Error(`status ${res.statusCode}`));
      });
    });
    req.on('error', reject);
    req.end(BODY);
  });
}

/** `CONNECTIONS` keep-alive connections, each sending its next check as soon as the last is answered. */
async function closedLoop(url: URL, seconds: number): Promise<{ checks: number; errors: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const deadline = Date.now() + seconds * 1000;
  const counts = { checks: 0, errors: 0 };
  const connection = async () => {
    while (Date.now() < deadline)
      await roundTrip(url, agent).then(
        () => (counts.checks += 1),
        () => (counts.errors += 1),
      );
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, connection));
  agent.destroy();
  return counts;
}

/**
 * The text check over HTTP (about 20 s, 127.0.0.1 only): the detector in its own process (LLM off, no Redis),
 * `POST /v1/check` with the 2 KB text. Measured: the detector's CPU per check (`/proc`) under a closed loop of
 * 8 keep-alive connections, then the p50 round trip of one request at a time (nothing queues), which is what
 * the HTTP stack and the check cost a request.
 */
export async function benchHttp(): Promise<void> {
  const env = { LOG_LEVEL: 'warn', TEXT_LLM_MODE: 'never', REDIS_URL: undefined, AMQP_URL: undefined };
  const service = spawnService('text-detector', env, await freePort());
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    await waitForReady(service);
    const pid = service.child.pid!;
    const url = new URL(`${service.url}/v1/check`);
    await closedLoop(url, 2);
    const cpuBefore = processCpuSeconds(pid);
    const result = await closedLoop(url, LOAD_S);
    const cpuPerCheck = ((processCpuSeconds(pid) - cpuBefore) * 1e6) / Math.max(1, result.checks);
    const latencies: number[] = [];
    for (let i = 0; i < ONE_AT_A_TIME; i++) latencies.push(await roundTrip(url, agent));
    console.log(
      `text-detector HTTP, 2 KB text, LLM off: ${Math.round(cpuPerCheck)} us CPU per check ` +
        `(${CONNECTIONS} connections, ${LOAD_S} s, ${Math.round(result.checks / LOAD_S)} checks/s), ` +
        `one at a time p50 ${percentile(latencies, 0.5).toFixed(3)} ms, p99 ${percentile(latencies, 0.99).toFixed(3)} ms, ` +
        `${result.errors} errors`,
    );
    if (result.errors > 0) process.exitCode = 1;
  } finally {
    agent.destroy();
    await stopService(service);
  }
}
