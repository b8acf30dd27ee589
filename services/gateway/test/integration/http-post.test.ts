import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { httpPost, upstream, type Upstream } from '../../src/data-access/http-post';

/** Created by the server once an answer is sent: a paused event loop can still look at a file. */
const SENT = join(tmpdir(), `http-post-test-${randomUUID()}`);

/**
 * A server in its own process (so that pausing the test's event loop does not pause it): it prints its port,
 * then `got` for each request, and answers each 20 ms later, creating SENT once the answer is written; a
 * request for `/held` it never answers.
 */
const SERVER = `
const server = require('node:http').createServer((req, res) => {
  console.log('got');
  if (req.url === '/held') return;
  setTimeout(() => res.end('late but there', () => require('node:fs').writeFileSync(${JSON.stringify(SENT)}, '')), 20);
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

/**
 * Keeps the event loop busy, as a long garbage collection or a starved CPU would, for at least `ms` and until
 * the server sent its answer (however long a loaded machine makes it take).
 */
function pauseEventLoop(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until || !existsSync(SENT));
}

describe('httpPost when the gateway itself pauses', () => {
  let server: ChildProcess;
  let lines: AsyncIterator<string>;
  let url: URL;
  let agent: Upstream;

  beforeAll(async () => {
    server = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
    lines = createInterface({ input: server.stdout! })[Symbol.asyncIterator]();
    url = new URL(`http://127.0.0.1:${(await lines.next()).value as string}/livez`);
    agent = upstream();
  });
  afterAll(async () => {
    rmSync(SENT, { force: true });
    await agent.close();
    server.kill();
    await once(server, 'exit');
  });

  it('takes an answer that arrived while its loop was paused past the deadline, rather than calling it a timeout', async () => {
    // The deadline is far beyond the time a loaded machine takes to deliver the request (the loop turns until
    // then), and the pause lasts past it: the deadline passes while the answer waits unread, however slow.
    const timeoutMs = 3000;
    const calledAt = Date.now();
    const answer = httpPost(url, { agent, method: 'GET', headers: {}, body: '', timeoutMs });
    expect((await lines.next()).value).toBe('got');
    pauseEventLoop(calledAt + timeoutMs + 100 - Date.now());
    const { status, body } = await answer;
    expect({ status, body: body.toString() }).toEqual({ status: 200, body: 'late but there' });
  });

  it('still fails at the deadline when the answer has not come by then', async () => {
    // Never answered: an answer 20 ms late would count whenever the test's own loop stalled that long.
    const answer = httpPost(new URL('/held', url), {
      agent,
      method: 'GET',
      headers: {},
      body: '',
      timeoutMs: 10,
    });
    await expect(answer).rejects.toMatchObject({ name: 'UpstreamError', kind: 'timeout' });
    expect((await lines.next()).value).toBe('got');
  });
});
