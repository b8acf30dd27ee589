import { spawn, type ChildProcess } from 'node:child_process';

/**
 * A redis-server of a test's own on `port` (never the shared one), for tests that stop, freeze or restart it;
 * `args` adds options (e.g. an append-only file so its data survives a restart). Resolves once it accepts
 * connections.
 */
export async function startRedisServer(port: number, args: readonly string[] = []): Promise<ChildProcess> {
  const child = spawn(
    '/usr/bin/redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...args],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  for (let i = 0; i < 100 && !/Ready to accept connections/.test(output); i++)
    await new Promise((resolve) => setTimeout(resolve, 50));
  if (!/Ready to accept connections/.test(output)) throw new Error(`redis-server did not start:\n${output}`);
  return child;
}
