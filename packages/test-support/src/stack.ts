import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const REPO_ROOT = join(__dirname, '..', '..', '..');

export const SERVICES = ['auth', 'email-detector', 'text-detector', 'gateway'] as const;
export type ServiceName = (typeof SERVICES)[number];

const PORT_VARIABLE: Record<ServiceName, string> = {
  gateway: 'GATEWAY_PORT',
  auth: 'AUTH_PORT',
  'email-detector': 'EMAIL_DETECTOR_PORT',
  'text-detector': 'TEXT_DETECTOR_PORT',
};

/** A free TCP port on loopback (the OS picks it; it is closed again before use). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface ServiceProcess {
  name: ServiceName;
  url: string;
  /** Where `/readyz` and `/metrics` answer: the gateway's management port, the API port of the others. */
  managementUrl: string;
  child: ChildProcess;
  output: () => string;
}

/**
 * Starts one service from its TypeScript source as a separate Node process (as `pnpm start` does). The
 * gateway needs `GATEWAY_MANAGEMENT_PORT` in `env` (e.g. `String(await freePort())`).
 */
export function spawnService(
  name: ServiceName,
  env: Record<string, string | undefined>,
  port: number,
  onOutput?: (chunk: string) => void,
): ServiceProcess {
  const managementPort = name === 'gateway' ? env.GATEWAY_MANAGEMENT_PORT : String(port);
  if (!managementPort) throw new Error('spawnService: the gateway needs GATEWAY_MANAGEMENT_PORT in env');
  const entry = join(REPO_ROOT, 'services', name, 'src', 'main.ts');
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', entry], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env, [PORT_VARIABLE[name]]: String(port), PORT: undefined },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    onOutput?.(chunk.toString());
    output += chunk.toString();
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  return {
    name,
    url: `http://127.0.0.1:${port}`,
    managementUrl: `http://127.0.0.1:${managementPort}`,
    child,
    output: () => output,
  };
}

export async function waitForReady(service: ServiceProcess, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (service.child.exitCode !== null) {
      throw new Error(`${service.name} exited with ${service.child.exitCode}:\n${service.output()}`);
    }
    try {
      const response = await fetch(`${service.managementUrl}/readyz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${service.name} was not ready within ${timeoutMs} ms:\n${service.output()}`);
}

export async function stopService(service: ServiceProcess): Promise<void> {
  if (service.child.exitCode !== null || service.child.signalCode !== null) return;
  const exited = once(service.child, 'exit');
  service.child.kill('SIGTERM');
  const timer = setTimeout(() => service.child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

export interface Stack {
  gateway: string;
  services: Record<ServiceName, ServiceProcess>;
  stop: () => Promise<void>;
}

/**
 * The whole system as four processes on free ports, wired together by environment variables, as in
 * production. `env` is added to every service's environment (e.g. REDIS_URL, AMQP_URL, AUTH_BOOTSTRAP_FILE).
 * `readyTimeoutMs` (20 s) is how long each service may take to be ready: longer for suites that start while
 * the full test run keeps both cores busy (the text detector loads its model first).
 */
export async function startStack(
  env: Record<string, string | undefined> = {},
  options: { readyTimeoutMs?: number } = {},
): Promise<Stack> {
  const ports = Object.fromEntries(
    await Promise.all(SERVICES.map(async (name) => [name, await freePort()])),
  ) as Record<ServiceName, number>;
  const wiring = {
    LOG_LEVEL: 'warn',
    GATEWAY_MANAGEMENT_PORT: String(await freePort()),
    AUTH_URL: `http://127.0.0.1:${ports.auth}`,
    EMAIL_DETECTOR_URL: `http://127.0.0.1:${ports['email-detector']}`,
    TEXT_DETECTOR_URL: `http://127.0.0.1:${ports['text-detector']}`,
    ...env,
  };
  const services = Object.fromEntries(
    SERVICES.map((name) => [name, spawnService(name, wiring, ports[name])]),
  ) as Record<ServiceName, ServiceProcess>;
  const stop = async () => {
    await Promise.all(Object.values(services).map(stopService));
  };
  try {
    await Promise.all(
      Object.values(services).map((service) => waitForReady(service, options.readyTimeoutMs)),
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { gateway: services.gateway.url, services, stop };
}
