import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { freePort, REPO_ROOT, SELF_CONTAINED_ENV } from '@spam-check/process-kit';
import { acceptsConnections } from '@spam-check/test-support';

// `pnpm start` as a user runs it and as a process supervisor or `timeout` stops it: a SIGTERM to pnpm alone.
// pnpm ends without passing the signal on, so the script must notice it was left and stop its services.

/** This run's ports, with nothing outside the stack (the embedded defaults `pnpm start` uses alone). */
function embeddedEnv(ports: Record<string, number>): NodeJS.ProcessEnv {
  const portVariables = Object.entries(ports).map(([name, port]) => [name, String(port)]);
  return { ...process.env, ...SELF_CONTAINED_ENV, ...Object.fromEntries(portVariables) };
}

async function until(condition: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return condition();
}

/** Free ports for the four services and the gateway's management port, by the variables `pnpm start` reads. */
async function freePorts() {
  return {
    GATEWAY_PORT: await freePort(),
    AUTH_PORT: await freePort(),
    EMAIL_DETECTOR_PORT: await freePort(),
    TEXT_DETECTOR_PORT: await freePort(),
    GATEWAY_MANAGEMENT_PORT: await freePort(),
  };
}

describe('pnpm start', () => {
  const started: ChildProcess[] = [];
  let output = '';

  const start = (ports: Record<string, number>) => {
    output = '';
    const pnpm = spawn('pnpm', ['start'], {
      cwd: REPO_ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: embeddedEnv(ports),
    });
    for (const stream of [pnpm.stdout, pnpm.stderr]) stream.on('data', (chunk) => (output += chunk));
    started.push(pnpm);
    return pnpm;
  };
  const servicePorts = (ports: Record<string, number>) => Object.values(ports).slice(0, 4);
  const allClosed = async (ports: number[]) =>
    until(async () => (await Promise.all(ports.map(acceptsConnections))).every((open) => !open), 20_000);

  afterAll(() => {
    // Whatever is left of the process groups (only when a test failed).
    for (const pnpm of started) {
      try {
        process.kill(-pnpm.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });

  it('stops every service when pnpm alone gets SIGTERM', async () => {
    const ports = await freePorts();
    const pnpm = start(ports);
    const up = await until(async () => output.includes('Spam check API is up'), 90_000);
    expect({ up, output: up ? '' : output.slice(-2000) }).toEqual({ up: true, output: '' });
    const listening = servicePorts(ports);
    expect(await Promise.all(listening.map(acceptsConnections))).toEqual([true, true, true, true]);

    const exited = once(pnpm, 'exit');
    pnpm.kill('SIGTERM');
    await exited;
    const stopped = await allClosed(listening);
    expect({ stopped, open: await Promise.all(listening.map(acceptsConnections)) }).toEqual({
      stopped: true,
      open: [false, false, false, false],
    });
  }, 150_000);

  it('stops the others and exits 1 when a service cannot start (its port is taken)', async () => {
    const ports = await freePorts();
    const squatter = createServer().listen(ports.TEXT_DETECTOR_PORT, '0.0.0.0');
    await once(squatter, 'listening');
    try {
      const pnpm = start(ports);
      const [code] = (await once(pnpm, 'exit')) as [number | null];
      expect(code).not.toBe(0);
      expect(output).not.toContain('Spam check API is up');
      expect(output).toContain('text-detector exited');
      const others = [ports.GATEWAY_PORT, ports.AUTH_PORT, ports.EMAIL_DETECTOR_PORT];
      expect(await allClosed(others)).toBe(true);
    } finally {
      squatter.close();
    }
  }, 150_000);
});
