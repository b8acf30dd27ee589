import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { freePort, startService, stopService, type ServiceProcess } from '@spam-check/process-kit';
import {
  delay,
  mailResult,
  obtainToken,
  sendJson,
  startAuth,
  startScriptedServer,
  textResult,
  type Running,
} from './support/servers';

/** What came back on a raw connection: the bytes, and whether the server closed it. */
interface RawExchange {
  text: string;
  closedByServer: boolean;
}

/** Opens a TCP connection, writes `head`, then `drip` one byte per 200 ms until the server answers or closes. */
async function rawExchange(port: number, head: string, drip = false): Promise<RawExchange> {
  const socket = net.connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  socket.write(head);
  const timer = drip
    ? setInterval(() => {
        if (socket.writable) socket.write('x');
      }, 200)
    : undefined;
  let limit: NodeJS.Timeout | undefined;
  await Promise.race([
    once(socket, 'close'),
    new Promise((resolve) => (limit = setTimeout(resolve, 20_000))),
  ]);
  clearTimeout(limit);
  clearInterval(timer);
  const closedByServer = socket.destroyed;
  socket.destroy();
  return { text, closedByServer };
}

function parseAnswer(text: string) {
  const [head = '', body = ''] = text.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
    }),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

describe('the gateway process and slow, malformed or draining connections', () => {
  let auth: Running;
  let email: Awaited<ReturnType<typeof startScriptedServer>>;
  let text: Awaited<ReturnType<typeof startScriptedServer>>;
  let token: string;
  let answerDelayMs = 0;

  const spawnGateway = async (env: Record<string, string> = {}): Promise<ServiceProcess> => {
    return startService(
      'gateway',
      {
        LOG_LEVEL: 'warn',
        NODE_ENV: 'test',
        REDIS_URL: undefined,
        AMQP_URL: undefined,
        AUTH_URL: auth.url,
        EMAIL_DETECTOR_URL: email.url,
        TEXT_DETECTOR_URL: text.url,
        GATEWAY_MANAGEMENT_PORT: String(await freePort()),
        HEADERS_TIMEOUT_MS: '1000',
        REQUEST_TIMEOUT_MS: '2000',
        ...env,
      },
      await freePort(),
    );
  };

  beforeAll(async () => {
    auth = await startAuth();
    // The detectors lie outside the gateway: scripted servers play them, answering after `answerDelayMs`.
    email = await startScriptedServer(async (req, res) => {
      if (req.url === '/livez') return sendJson(res, 200, { status: 'alive' });
      await delay(answerDelayMs);
      sendJson(res, 200, mailResult(false, String(req.headers['x-request-id'])));
    });
    text = await startScriptedServer((req, res) =>
      req.url === '/livez' ? sendJson(res, 200, { status: 'alive' }) : sendJson(res, 200, textResult('ham')),
    );
    token = await obtainToken(auth.url);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([auth.stop(), email.stop(), text.stop()]);
  });

  describe('one gateway with HEADERS_TIMEOUT_MS=1000 and REQUEST_TIMEOUT_MS=2000', () => {
    let gateway: ServiceProcess;
    let port: number;

    beforeAll(async () => {
      gateway = await spawnGateway();
      port = Number(new URL(gateway.url).port);
    }, 60_000);
    afterAll(() => stopService(gateway));

    it('when /readyz or /metrics is asked on the public port, it is 404; the management port serves them', async () => {
      for (const path of ['/readyz', '/metrics', '/deapi/../readyz']) {
        const response = await fetch(`${gateway.url}${path}`);
        expect(response.status).toBe(404);
        expect(response.headers.get('content-type')).toContain('application/problem+json');
      }
      expect((await fetch(`${gateway.url}/livez`)).status).toBe(200);
      const ready = await fetch(`${gateway.managementUrl}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ status: 'ready' });
      const metrics = await fetch(`${gateway.managementUrl}/metrics`);
      expect(await metrics.text()).toContain('gateway_token_lookups_total');
      expect((await fetch(`${gateway.managementUrl}/api/v1/spam/mail`, { method: 'POST' })).status).toBe(404);
    });

    it('when an authenticated body drips in slower than REQUEST_TIMEOUT_MS, it is 408 REQUEST_TIMEOUT and the connection is closed', async () => {
      const startedAt = Date.now();
      const exchange = await rawExchange(
        port,
        'POST /api/v1/spam/mail HTTP/1.1\r\nHost: gateway\r\nContent-Type: application/json\r\n' +
          `Authorization: Bearer ${token}\r\nContent-Length: 100000\r\n\r\n{"email":"`,
        true,
      );
      const answer = parseAnswer(exchange.text);
      expect(answer.status).toBe(408);
      expect(answer.headers['content-type']).toBe('application/problem+json');
      expect(answer.headers.connection).toBe('close');
      const problem = JSON.parse(answer.body) as { code: string; request_id: string };
      expect(problem.code).toBe('REQUEST_TIMEOUT');
      expect(problem.request_id).toBe(answer.headers['x-request-id']);
      expect(exchange.closedByServer).toBe(true);
      // Far below Node's 300 s default: the configured 2 s plus Node's one-second check interval.
      expect(Date.now() - startedAt).toBeLessThan(10_000);
    });

    it('when headers drip in slower than HEADERS_TIMEOUT_MS, it is 408 and the connection is closed', async () => {
      const exchange = await rawExchange(port, 'POST /api/v1/spam/mail HTTP/1.1\r\nX-Slow: ', true);
      const answer = parseAnswer(exchange.text);
      expect(answer.status).toBe(408);
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'REQUEST_TIMEOUT', status: 408 });
      expect(exchange.closedByServer).toBe(true);
    });

    it.each([
      ['without a token (401)', '', 'Content-Length: 100000', 401],
      [
        'with a body over MAX_BODY_BYTES (413)',
        `Authorization: Bearer TOKEN\r\n`,
        'Content-Length: 1000000',
        413,
      ],
    ])(
      'when a request is refused %s before its body arrived, the answer says Connection: close and the connection is closed at once',
      async (_case, auth, length, status) => {
        const exchange = await rawExchange(
          port,
          'POST /api/v1/spam/mail HTTP/1.1\r\nHost: gateway\r\nContent-Type: application/json\r\n' +
            `${auth.replace('TOKEN', token)}${length}\r\n\r\n{"email":"`,
        );
        const answer = parseAnswer(exchange.text);
        expect(answer.status).toBe(status);
        expect(answer.headers.connection).toBe('close');
        expect(exchange.closedByServer).toBe(true);
      },
    );

    it.each([
      [
        'a malformed header line',
        'GET /livez HTTP/1.1\r\nHost: gateway\r\nno colon here\r\n\r\n',
        400,
        'MALFORMED_REQUEST',
      ],
      [
        'both Content-Length and chunked',
        'POST /api/v1/spam/mail HTTP/1.1\r\nHost: g\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
        400,
        'MALFORMED_REQUEST',
      ],
      [
        'headers over 16 KiB',
        `GET /livez HTTP/1.1\r\nHost: gateway\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
        431,
        'HEADERS_TOO_LARGE',
      ],
    ])(
      'when Node refuses a request with %s, the answer is a problem with an X-Request-Id',
      async (_case, request, status, code) => {
        const exchange = await rawExchange(port, request);
        const answer = parseAnswer(exchange.text);
        expect(answer.status).toBe(status);
        expect(answer.headers['content-type']).toBe('application/problem+json');
        expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
        expect(JSON.parse(answer.body)).toMatchObject({
          code,
          status,
          request_id: answer.headers['x-request-id'],
        });
        expect(exchange.closedByServer).toBe(true);
      },
    );
  });

  it('when SIGTERM arrives with requests in flight on keep-alive connections, each gets its whole answer with Connection: close and the process exits 0', async () => {
    const gateway = await spawnGateway({ SHUTDOWN_TIMEOUT_MS: '20000' });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    const post = () =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
        const request = http.request(
          `${gateway.url}/api/v1/spam/mail`,
          {
            method: 'POST',
            agent,
            headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          },
          (response) => {
            let body = '';
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => (body += chunk));
            response.on('end', () =>
              resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
            );
            response.on('error', reject);
          },
        );
        request.on('error', reject);
        request.end(JSON.stringify({ email: 'someone@example.org' }));
      });
    try {
      answerDelayMs = 0;
      const warm = await Promise.all([post(), post(), post(), post()]);
      expect(warm.map((answer) => answer.headers.connection)).toEqual(Array(4).fill('keep-alive'));

      answerDelayMs = 1500;
      const before = email.requests.length;
      const inFlight = [post(), post(), post(), post()];
      while (email.requests.length < before + 4) await delay(20);
      const exited = once(gateway.child, 'exit');
      gateway.child.kill('SIGTERM');

      const answers = await Promise.all(inFlight);
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        expect(answer.headers.connection).toBe('close');
        expect(JSON.parse(answer.body)).toMatchObject({ spam: false });
      }
      const [code] = (await exited) as [number | null];
      expect(code).toBe(0);
      await expect(post()).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      answerDelayMs = 0;
      agent.destroy();
      await stopService(gateway);
    }
  }, 60_000);
});
