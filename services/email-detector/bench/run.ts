import { fork } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { BENCH_ADDRESSES } from './addresses';
import { benchInProcess } from './in-process';

/**
 * E-mail detector bench (< 30 s, 127.0.0.1 only):
 * 1. in-process checks/s of the domain function with DNS off, on one core;
 * 2. HTTP latency p50/p99 of POST /v1/check with a warm DNS cache (loopback DNS server), the service in a
 *    child process and autocannon here.
 */
async function main(): Promise<void> {
  const inProcess = await benchInProcess(5);
  console.log(`email-detector in-process (DNS off, 1 core): ${inProcess.checksPerSecond} checks/s`);

  const child = fork(join(__dirname, 'http-server.ts'), [], {
    execArgv: ['--conditions=source', '--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const [ready] = (await once(child, 'message')) as [{ port: number }];
  const url = `http://127.0.0.1:${ready.port}`;
  const bodies = BENCH_ADDRESSES.map((email) => JSON.stringify({ email }));
  for (const body of bodies)
    await fetch(`${url}/v1/check`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

  const result = await autocannon({
    url,
    connections: 10,
    duration: 10,
    requests: bodies.map((body) => ({
      method: 'POST' as const,
      path: '/v1/check',
      headers: { 'content-type': 'application/json' },
      body,
    })),
  });
  child.send('stop');
  await once(child, 'exit');
  const errors = result.errors + result.non2xx;
  console.log(
    `email-detector HTTP (warm DNS cache, 10 connections, 10 s): p50 ${result.latency.p50} ms, ` +
      `p99 ${result.latency.p99} ms, ${Math.round(result.requests.average)} req/s, ${errors} errors`,
  );
  if (errors > 0) process.exitCode = 1;
}

void main();
