import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';

const FIXTURE = path.join(__dirname, 'fixtures', 'promotion.ts');

/**
 * After a full collection under load, requests that are over must not be promoted to the old generation
 * (src/in-flight.ts; README, "Garbage collection"). Measured in a process of its own with `--expose-gc`: with
 * a `Set` of in-flight responses the old generation gained about 2,500 bytes per request, with the list about 13.
 */
describe('what young-generation collections promote after a full collection under load', () => {
  it('when 6,000 requests pass a kit app after a full collection, the old generation gains less than 500 bytes per request', async () => {
    const child = spawn(
      process.execPath,
      ['--expose-gc', '--conditions=source', '--import', 'tsx', FIXTURE],
      {
        cwd: path.join(__dirname, '..'),
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const [code] = (await once(child, 'exit')) as [number | null];
    clearTimeout(killer);

    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const { promotedBytesPerRequest } = JSON.parse(stdout) as { promotedBytesPerRequest: number };
    expect(promotedBytesPerRequest).toBeLessThan(500);
  }, 70_000);
});
