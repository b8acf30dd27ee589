import { spawn } from 'node:child_process';
import { once } from 'node:events';

/**
 * Runs a TypeScript fixture in a Node process of its own (through tsx, from the sources) and collects what it
 * printed. A fixture that does not exit within `timeoutMs` (a leaked handle, a hang) is killed: its exit code is
 * then null, and the test fails on it.
 */
export async function runFixture(
  file: string,
  options: { cwd: string; nodeArgs?: string[]; args?: string[]; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), '--conditions=source', '--import', 'tsx', file, ...(options.args ?? [])],
    { cwd: options.cwd, env: options.env ?? process.env },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(killer);
  return { code, stdout, stderr };
}
