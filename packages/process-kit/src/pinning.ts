import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

export interface Pinning {
  /**
   * Puts `alone` (all its threads) on the last CPU, and `others` and this process on the other CPUs, so the
   * process a bench measures never waits for a core behind the load generator or the services behind it.
   * Returns false, and pins nothing more from then on, when pinning is off or `taskset` fails.
   */
  pin: (alone: number | undefined, others?: readonly (number | undefined)[]) => boolean;
  /** The CPU `pin` gives the measured process alone. */
  readonly cpu: number;
  /** What `pin` does here, for a bench's report. */
  readonly note: string;
}

/**
 * CPU pinning with `taskset` (util-linux): Linux with at least two CPUs only; elsewhere, or with
 * `enabled` false, `pin` does nothing and says so.
 */
export function createPinning(enabled = true): Pinning {
  const cpus = availableParallelism();
  const alone = String(cpus - 1);
  const rest = `0-${cpus - 2}`;
  let working = enabled && process.platform === 'linux' && cpus >= 2;
  const set = (pid: number | undefined, list: string) => {
    if (pid) execFileSync('taskset', ['-a', '-p', '-c', list, String(pid)], { stdio: 'ignore' });
  };
  return {
    cpu: cpus - 1,
    pin: (measured, others = []) => {
      if (!working) return false;
      try {
        set(measured, alone);
        for (const pid of [...others, process.pid]) set(pid, rest);
      } catch {
        working = false;
      }
      return working;
    },
    get note() {
      return working
        ? `measured process pinned alone to CPU ${alone}, this process and the others to CPU ${rest}`
        : 'not pinned (pinning off, or no taskset / fewer than two CPUs)';
    },
  };
}
