import { readFileSync } from 'node:fs';

/**
 * `/proc/<pid>/stat` fields after the command name (field 3 of proc(5) is index 0). The name is cut at the
 * last `)`, since it may itself hold spaces and parentheses. Linux only.
 */
export function procStat(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** CPU seconds (user + system, all threads) a process has used so far. Linux only. */
export function processCpuSeconds(pid: number): number {
  const fields = procStat(pid);
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
