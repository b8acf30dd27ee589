import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { freePort, REPO_ROOT } from '@spam-check/process-kit';

// `pnpm start` as a user runs it and as a process supervisor or `timeout` stops it: a SIGTERM to pnpm alone.
// pnpm ends without passing the signal on, so the script must notice it was left and stop its services.

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** This run's ports, the embedded defaults (no Redis, RabbitMQ or OpenAI), no DNS. */
function embeddedEnv(ports: Record<string, number>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, EMAIL_DNS_CHECK: 'off' };
  for (const name of ['REDIS_URL', 'AMQP_URL', 'OPENAI_API_KEY']) delete env[name];
  for (const [name, port] of Object.entries(ports)) env[name] = String(port);
  return env;
}

async function until(condition: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return condition();
}

describe('pnpm start', () => {
  let pnpm: ChildProcess | undefined;
  let output = '';

  afterAll(() => {
    // Whatever is left of the process group (only when the test failed).
    if (pnpm?.pid) {
      try {
        process.kill(-pnpm.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });

  it('stops every service when pnpm alone gets SIGTERM', async () => {
    const ports = {
      GATEWAY_PORT: await freePort(),
      AUTH_PORT: await freePort(),
      EMAIL_DETECTOR_PORT: await freePort(),
      TEXT_DETECTOR_PORT: await freePort(),
      GATEWAY_MANAGEMENT_PORT: await freePort(),
    };
    pnpm = spawn('pnpm', ['start'], {
      cwd: REPO_ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: embeddedEnv(ports),
    });
    for (const stream of [pnpm.stdout!, pnpm.stderr!]) stream.on('data', (chunk) => (output += chunk));
    const up = await until(async () => output.includes('Spam check API is up'), 90_000);
    expect({ up, output: up ? '' : output.slice(-2000) }).toEqual({ up: true, output: '' });
    const listening = Object.values(ports).slice(0, 4);
    expect(await Promise.all(listening.map(accepts))).toEqual([true, true, true, true]);

    const exited = once(pnpm, 'exit');
    pnpm.kill('SIGTERM');
    await exited;
    const stopped = await until(
      async () => (await Promise.all(listening.map(accepts))).every((open) => !open),
      20_000,
    );
    expect({ stopped, open: await Promise.all(listening.map(accepts)) }).toEqual({
      stopped: true,
      open: [false, false, false, false],
    });
  }, 150_000);
});
