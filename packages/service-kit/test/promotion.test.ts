import path from 'node:path';
import { runFixture } from '@spam-check/test-support';

const FIXTURE = path.join(__dirname, 'fixtures', 'promotion.ts');

/**
 * After a full collection under load, requests that are over must not be promoted to the old generation
 * (src/in-flight.ts; README, "Garbage collection"). Measured in a process of its own with `--expose-gc`: with
 * a `Set` of in-flight responses the old generation gained about 2,500 bytes per request, with the list about 13.
 */
describe('what young-generation collections promote after a full collection under load', () => {
  it('when 6,000 requests pass a kit app after a full collection, the old generation gains less than 500 bytes per request', async () => {
    const { code, stdout, stderr } = await runFixture(FIXTURE, {
      cwd: path.join(__dirname, '..'),
      nodeArgs: ['--expose-gc'],
      timeoutMs: 60_000,
    });

    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const { promotedBytesPerRequest } = JSON.parse(stdout) as { promotedBytesPerRequest: number };
    expect(promotedBytesPerRequest).toBeLessThan(500);
  }, 70_000);
});
