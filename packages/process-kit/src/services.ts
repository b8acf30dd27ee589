import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { processCpuSeconds } from './proc';

export const REPO_ROOT = join(__dirname, '..', '..', '..');

export const SERVICES = ['auth', 'email-detector', 'text-detector', 'gateway'] as const;
export type ServiceName = (typeof SERVICES)[number];

const PORT_VARIABLE: Record<ServiceName, string> = {
  gateway: 'GATEWAY_PORT',
  auth: 'AUTH_PORT',
  'email-detector': 'EMAIL_DETECTOR_PORT',
  'text-detector': 'TEXT_DETECTOR_PORT',
};

export interface ServiceProcess {
  name: ServiceName;
  url: string;
  /** Where `/readyz` and `/metrics` answer: the gateway's management port, the API port of the others. */
  managementUrl: string;
  child: ChildProcess;
  /** The last 100-200 kB the process wrote to stdout and stderr. */
  output: () => string;
}

export interface SpawnOptions {
  /** Called with every chunk of the process's stdout and stderr (e.g. to print it with a prefix). */
  onOutput?: (chunk: string) => void;
  /** Node options for the service only, e.g. `--cpu-prof`. */
  nodeArgs?: readonly string[];
  /** Runs the compiled service (`dist/main.js`, workspace packages from their dist) instead of the source. */
  compiled?: boolean;
}

/**
 * Starts one service as a separate Node process, as in production: from its TypeScript source through tsx
 * (as `pnpm start` does), or compiled. `env` is added to this process's environment; the port goes into the
 * service's own port variable. The gateway needs `GATEWAY_MANAGEMENT_PORT` in `env` (e.g.
 * `String(await freePort())`).
 */
export function spawnService(
  name: ServiceName,
  env: Record<string, string | undefined>,
  port: number,
  options: SpawnOptions = {},
): ServiceProcess {
  const managementPort = name === 'gateway' ? env.GATEWAY_MANAGEMENT_PORT : String(port);
  if (!managementPort) throw new Error('spawnService: the gateway needs GATEWAY_MANAGEMENT_PORT in env');
  const directory = join(REPO_ROOT, 'services', name);
  const entry = options.compiled
    ? [join(directory, 'dist', 'main.js')]
    : ['--conditions=source', '--import', 'tsx', join(directory, 'src', 'main.ts')];
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...entry], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env, [PORT_VARIABLE[name]]: String(port), PORT: undefined },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    options.onOutput?.(chunk.toString());
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

export interface ReadyOptions {
  /**
   * How long the service may take (20 s by default), counted in its own CPU time (`budget` below): a loaded
   * machine stretches a start's wall-clock time, not the work it needs.
   */
  timeoutMs?: number;
  /**
   * Readiness checks that may be down (e.g. the gateway's check of a detector that a bench does not start):
   * then the service counts as ready when every other check of its `/readyz` body is up.
   */
  ignoreChecks?: readonly string[];
}

async function isReady(
  service: ServiceProcess,
  ignoreChecks: readonly string[],
  timeoutMs: number,
): Promise<boolean> {
  try {
    // A probe has a deadline of its own: a stalled service accepts the connection and never answers.
    const response = await fetch(`${service.managementUrl}/readyz`, {
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (response.ok) return true;
    if (ignoreChecks.length === 0) return false;
    const { checks = {} } = (await response.json()) as { checks?: Record<string, string> };
    return Object.entries(checks).every(([name, state]) => ignoreChecks.includes(name) || state === 'up');
  } catch {
    return false; // not listening yet, or no answer in time
  }
}

/** How many times its CPU budget a process may take on the clock while it waits without working. */
const WAIT_FACTOR = 10;

/** The CPU seconds the process used so far; 0 once it is gone (its exit is noticed before this matters). */
function cpuSecondsOf(child: ChildProcess): number {
  try {
    return child.pid === undefined ? 0 : processCpuSeconds(child.pid);
  } catch {
    return 0;
  }
}

/**
 * A process's budget from now: `timeoutMs` of its own CPU time, or `WAIT_FACTOR` times as long on the clock.
 * A loaded machine stretches a start's wall-clock time, not the work it needs; only a process that waits
 * without working (stopped, or waiting for a dependency that never comes) runs into the clock.
 */
function budget(child: ChildProcess, timeoutMs: number) {
  const started = Date.now();
  const startedCpu = cpuSecondsOf(child);
  const cpuMs = () => Math.round((cpuSecondsOf(child) - startedCpu) * 1000);
  const clockLeftMs = () => WAIT_FACTOR * timeoutMs - (Date.now() - started);
  return {
    clockLeftMs,
    spent: () => cpuMs() >= timeoutMs || clockLeftMs() <= 0,
    describe: () => `${timeoutMs} ms (${cpuMs()} ms of CPU time, ${Date.now() - started} ms on the clock)`,
  };
}

/**
 * Waits until the service's `/readyz` says ready; throws with its output when it exits, or when it spent its
 * budget (`budget`: `timeoutMs` of CPU time) without getting ready.
 */
export async function waitForReady(service: ServiceProcess, options: ReadyOptions = {}): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const left = budget(service.child, timeoutMs);
  while (!left.spent()) {
    if (service.child.exitCode !== null) {
      throw new Error(`${service.name} exited with ${service.child.exitCode}:\n${service.output()}`);
    }
    const probeMs = Math.max(1, Math.min(1000, left.clockLeftMs()));
    if (await isReady(service, options.ignoreChecks ?? [], probeMs)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${service.name} was not ready within ${left.describe()}:\n${service.output()}`);
}

/**
 * Waits for a process started just before to exit on its own; kills it (SIGKILL) once it spent its budget
 * (`budget`: `timeoutMs` of CPU time). Answers its exit code, null when it was killed.
 */
export async function waitForExit(child: ChildProcess, timeoutMs = 20_000): Promise<number | null> {
  const left = budget(child, timeoutMs);
  const exited = once(child, 'exit');
  const watch = setInterval(() => {
    if (left.spent()) child.kill('SIGKILL');
  }, 100);
  const [code] = (await exited) as [number | null];
  clearInterval(watch);
  return code;
}

/** SIGTERM, then SIGKILL after 10 s; resolves when the process has exited. */
export async function stopService(service: ServiceProcess): Promise<void> {
  if (service.child.exitCode !== null || service.child.signalCode !== null) return;
  const exited = once(service.child, 'exit');
  service.child.kill('SIGTERM');
  const timer = setTimeout(() => service.child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/**
 * `spawnService`, then `waitForReady`: the service, ready. One that never gets ready is stopped before the
 * error is thrown, so that a failed start leaves no process behind.
 */
export async function startService(
  name: ServiceName,
  env: Record<string, string | undefined>,
  port: number,
  options: SpawnOptions & ReadyOptions = {},
): Promise<ServiceProcess> {
  const service = spawnService(name, env, port, options);
  try {
    await waitForReady(service, options);
  } catch (error) {
    await stopService(service);
    throw error;
  }
  return service;
}
