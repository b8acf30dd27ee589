import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { ROOT } from '../integration/deploy-files/files';

const run = promisify(execFile);

/** A command's stdout; a failure carries its stderr. */
export async function sh(command: string, args: string[]): Promise<string> {
  try {
    const { stdout } = await run(command, args, { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    throw new Error(`${command} ${args.join(' ')} failed:\n${stderr ?? ''}${stdout ?? ''}`);
  }
}

/** `docker compose` on the repository's docker-compose.yml, as one project with its own .env file. */
export function composeProject(project: string, envFile: string) {
  const compose = (...args: string[]) =>
    sh('docker', ['compose', '-p', project, '--env-file', envFile, '-f', 'docker-compose.yml', ...args]);
  const containers = async (service?: string) =>
    (await compose('ps', '-a', '-q', ...(service ? [service] : []))).split('\n').filter(Boolean);
  const exec = (service: string, ...command: string[]) => compose('exec', '-T', service, ...command);
  return { compose, containers, exec };
}

export interface ContainerState {
  name: string;
  service: string;
  readOnly: boolean;
  capDrop: string[];
  running: boolean;
  exitCode: number;
  pid: number;
  ip: string;
}

export async function inspect(id: string): Promise<ContainerState> {
  const [info] = JSON.parse(await sh('docker', ['inspect', id])) as {
    Name: string;
    Config: { Labels: Record<string, string> };
    HostConfig: { ReadonlyRootfs: boolean; CapDrop: string[] | null };
    State: { Running: boolean; ExitCode: number; Pid: number };
    NetworkSettings: { Networks: Record<string, { IPAddress: string }> };
  }[];
  return {
    name: info!.Name.replace(/^\//, ''),
    service: info!.Config.Labels['com.docker.compose.service']!,
    readOnly: info!.HostConfig.ReadonlyRootfs,
    capDrop: info!.HostConfig.CapDrop ?? [],
    running: info!.State.Running,
    exitCode: info!.State.ExitCode,
    pid: info!.State.Pid,
    ip: Object.values(info!.NetworkSettings.Networks)[0]?.IPAddress ?? '',
  };
}

/** The user ids (real, effective, saved, filesystem) and effective capabilities of a running process. */
export function processIdentity(pid: number): { uids: number[]; capEff: bigint } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => new RegExp(`^${name}:\\s*(.+)$`, 'm').exec(status)?.[1] ?? '';
  return { uids: field('Uid').split(/\s+/).map(Number), capEff: BigInt(`0x${field('CapEff')}`) };
}

/** Retries `attempt` until it resolves or `timeoutMs` passes; the last error is thrown. */
export async function eventually<T>(attempt: () => Promise<T>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

export interface Usage {
  name: string;
  memoryMiB: number;
  cpuPercent: number;
}

const UNITS: Record<string, number> = {
  B: 1 / 2 ** 20,
  KiB: 1 / 1024,
  kB: 1 / 1024,
  MiB: 1,
  MB: 1,
  GiB: 1024,
  GB: 1024,
};

/** One `docker stats --no-stream` sample: each container's memory in MiB and its CPU (100 = one core). */
export async function usage(ids: string[]): Promise<Usage[]> {
  const lines = await sh('docker', [
    'stats',
    '--no-stream',
    '--format',
    '{{.Name}}\t{{.MemUsage}}\t{{.CPUPerc}}',
    ...ids,
  ]);
  return lines
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [name, memory, cpu] = line.split('\t') as [string, string, string];
      const [, amount, unit] = /^([\d.]+)\s*([A-Za-z]+)/.exec(memory) ?? [];
      if (!amount || !unit || !(unit in UNITS)) throw new Error(`docker stats: cannot read "${line}"`);
      return { name, memoryMiB: Number(amount) * UNITS[unit]!, cpuPercent: Number.parseFloat(cpu) };
    });
}
