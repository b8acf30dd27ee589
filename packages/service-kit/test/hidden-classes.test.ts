import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';

const FIXTURE = path.join(__dirname, 'fixtures', 'hidden-classes.ts');

/**
 * A per-request object with a hidden class of its own kept each whole request alive through V8's young-generation
 * collections (README, "Hidden classes"). V8 itself is asked, in a process of its own with natives syntax on.
 */
describe('per-request objects and V8 hidden classes', () => {
  it('when two requests pass a kit app, their contexts and timed results share one hidden class, and so do two ioredis pipelines', async () => {
    const child = spawn(
      process.execPath,
      ['--allow-natives-syntax', '--conditions=source', '--import', 'tsx', FIXTURE],
      { cwd: path.join(__dirname, '..') },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const [code] = (await once(child, 'exit')) as [number | null];
    clearTimeout(killer);

    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(stdout)).toEqual({ contexts: true, results: true, pipelines: true });
  });
});
