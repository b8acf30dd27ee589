import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { freePort, startStack, waitForReady, type Stack } from '@spam-check/process-kit';

/**
 * The process helpers against the real services: a stack of the gateway and auth only, as the gateway bench
 * starts it (the detectors' ports have nothing listening).
 */
describe('a stack of some of the services', () => {
  let stack: Stack<'auth' | 'gateway'>;
  beforeAll(async () => {
    stack = await startStack(
      { REDIS_URL: undefined, AMQP_URL: undefined, GATEWAY_CLIENT_SECRET: randomUUID() },
      { services: ['auth', 'gateway'], readyTimeoutMs: 60_000 },
    );
  }, 90_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('when detectors are not started, the gateway counts as ready without their checks, and only then', async () => {
    const readyz = await fetch(`${stack.services.gateway.managementUrl}/readyz`);
    const body = (await readyz.json()) as { checks: Record<string, string> };
    expect(readyz.status).toBe(503);
    expect(body.checks).toMatchObject({ auth: 'up', 'email-detector': expect.not.stringMatching(/^up$/) });
    await expect(waitForReady(stack.services.gateway, { timeoutMs: 300 })).rejects.toThrow(
      'gateway was not ready within 300 ms',
    );
    await expect(
      waitForReady(stack.services.gateway, { ignoreChecks: ['email-detector', 'text-detector'] }),
    ).resolves.toBeUndefined();
  });

  it('when a service stalls, waiting for it to be ready gives up at the deadline instead of hanging', async () => {
    const { child } = stack.services.auth;
    child.kill('SIGSTOP');
    try {
      await expect(waitForReady(stack.services.auth, { timeoutMs: 500 })).rejects.toThrow(
        'auth was not ready within 500 ms',
      );
    } finally {
      child.kill('SIGCONT');
    }
    await expect(waitForReady(stack.services.auth)).resolves.toBeUndefined();
  });

  it('when a service is restarted, a new process answers on the same port', async () => {
    const before = stack.services.auth;
    const restarted = await stack.restart('auth');
    expect(restarted.child.pid).not.toBe(before.child.pid);
    expect(before.child.exitCode !== null || before.child.signalCode !== null).toBe(true);
    expect(restarted.url).toBe(before.url);
    expect(stack.services.auth).toBe(restarted);
    expect((await fetch(`${restarted.url}/readyz`)).status).toBe(200);
  }, 60_000);

  it('when the gateway is left out of the services, the stack refuses to start', async () => {
    await expect(startStack({}, { services: ['auth'] as never })).rejects.toThrow('must include the gateway');
  });
});

describe('waiting for a service to be ready', () => {
  it('when a start takes longer on the clock than its CPU budget but works little, it is still awaited', async () => {
    const port = await freePort();
    // Ready after 1.5 s of sleeping: what a start looks like on a loaded machine, whose CPU goes to others.
    const script =
      `setTimeout(() => require('node:http').createServer((_, res) => res.end('ok'))` +
      `.listen(${port}, '127.0.0.1'), 1500);`;
    const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
    const url = `http://127.0.0.1:${port}`;
    const service = { name: 'auth' as const, url, managementUrl: url, child, output: () => '' };
    try {
      await expect(waitForReady(service, { timeoutMs: 500 })).resolves.toBeUndefined();
    } finally {
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    }
  });
});
