import { readFileSync } from 'node:fs';

/**
 * `/proc/<pid>/stat` fields after the command name (field 3 of proc(5) is index 0). The name is cut at the
 * last `)`, since it may itself hold spaces and parentheses. Linux only.
 */
function procStat(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** CPU seconds (user + system, all threads) a process has used so far. Linux only. */
export function processCpuSeconds(pid: number): number {
  const fields = procStat(pid);
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The CPU a process last ran on (field 39 of proc(5)). Linux only. */
export function processCpu(pid: number): number {
  return Number(procStat(pid)[36]);
}

/** Resident set size of a process in bytes (`VmRSS` of `/proc/<pid>/status`). Linux only. */
export function processRssBytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : 0;
}

/**
 * Steal time so far, in seconds, per CPU (`/proc/stat`): the hypervisor running another VM on our vCPUs, which
 * explains rounds of a bench that differ without any change of ours. Linux only.
 */
export function stealSeconds(): number[] {
  return readFileSync('/proc/stat', 'utf8')
    .split('\n')
    .filter((line) => /^cpu\d/.test(line))
    .map((line) => Number(line.split(/\s+/)[8]) / 100);
}
