import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, processCpuSeconds } from '@spam-check/process-kit';

export interface StartedRspamd {
  url: string;
  /** CPU seconds of its process group (the main process and its workers) so far. */
  cpuSeconds: () => number;
  stop: () => void;
}

/** The process group of a process (field 5 of proc(5)), or undefined when it has gone. */
function groupOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
  } catch {
    return undefined;
  }
}

function groupCpuSeconds(group: number): number {
  let seconds = 0;
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    const pid = Number(entry);
    if (groupOf(pid) !== group) continue;
    try {
      seconds += processCpuSeconds(pid);
    } catch {
      // the process ended between the two reads
    }
  }
  return seconds;
}

/** Whether Debian's `rspamd` is installed (the bench skips its column when not). */
export const rspamdInstalled = () => existsSync('/usr/bin/rspamd');

/**
 * Rspamd content-only from the configuration folder `directory` (its `start.sh`, `local.d`, `override.d`),
 * copied to a temporary folder with free ports, started in a process group of its own; resolves once its
 * normal worker answers `/ping` (it loads its rules for about 15 s).
 */
export async function startRspamd(directory: string): Promise<StartedRspamd> {
  const copy = mkdtempSync(join(tmpdir(), 'rspamd-bench-'));
  cpSync(directory, copy, { recursive: true });
  const port = await freePort();
  const controller = await freePort();
  writeFileSync(
    join(copy, 'local.d', 'worker-normal.inc'),
    `bind_socket = "127.0.0.1:${port}";\ncount = 2;\n`,
  );
  writeFileSync(
    join(copy, 'local.d', 'worker-controller.inc'),
    `bind_socket = "127.0.0.1:${controller}";\ncount = 1;\n`,
  );
  const child = spawn('bash', [join(copy, 'start.sh'), join(copy, 'work')], {
    detached: true,
    stdio: 'ignore',
  });
  const group = child.pid!;
  const url = `http://127.0.0.1:${port}`;
  const stop = () => {
    try {
      process.kill(-group, 'SIGTERM');
    } catch {
      // already stopped
    }
  };
  for (let attempt = 0; ; attempt++) {
    if (
      await fetch(`${url}/ping`).then(
        (response) => response.ok,
        () => false,
      )
    )
      break;
    if (attempt === 240 || child.exitCode !== null) {
      stop();
      throw new Error(`rspamd did not answer /ping on ${url} within 120 s (its log: ${copy}/work/log)`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return { url, cpuSeconds: () => groupCpuSeconds(group), stop };
}
