import path from 'node:path';
import { runFixture } from '@spam-check/test-support';

const FIXTURE = path.join(__dirname, 'fixtures', 'hidden-classes.ts');

/**
 * A per-request object with a hidden class of its own kept each whole request alive through V8's young-generation
 * collections (README, "Hidden classes"). V8 itself is asked, in a process of its own with natives syntax on.
 */
describe('per-request objects and V8 hidden classes', () => {
  it('when two requests pass a kit app, their contexts and timed results share one hidden class, and so do two ioredis pipelines', async () => {
    const { code, stdout, stderr } = await runFixture(FIXTURE, {
      cwd: path.join(__dirname, '..'),
      nodeArgs: ['--allow-natives-syntax'],
    });

    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(stdout)).toEqual({ contexts: true, results: true, pipelines: true });
  });
});
