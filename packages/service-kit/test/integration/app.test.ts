import { Writable } from 'node:stream';
import { problemSchema } from '@spam-check/contracts';
import {
  AppError,
  createLogger,
  createMetrics,
  createReadiness,
  createServiceApp,
  parseBody,
  postRoute,
  readJsonBody,
  requestContext,
  sendJson,
  serve,
} from '@spam-check/service-kit';
import { z } from 'zod';

function captureLogs() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      callback();
    },
  });
  return { lines, destination };
}

/**
 * A kit app named `service` with the given routes, logging into `logs`, served on port 0: its URL, a JSON
 * POST to it, and its stop.
 */
async function serveKitApp(
  service: string,
  logs: ReturnType<typeof captureLogs>,
  parts: Pick<Parameters<typeof createServiceApp>[0], 'readiness' | 'routes' | 'hotRoutes'>,
) {
  const logger = createLogger({ service, level: 'info', destination: logs.destination });
  const app = createServiceApp({
    logger,
    metrics: createMetrics(service),
    config: { LANGUAGES: ['de', 'fr', 'en'], DEFAULT_LANGUAGE: 'en', MAX_BODY_BYTES: 1024 },
    ...parts,
  });
  const running = await serve(app, { port: 0, host: '127.0.0.1', logger, readiness: parts.readiness });
  const url = `http://127.0.0.1:${running.port}`;
  return {
    url,
    post: (path: string, body: string, headers: Record<string, string> = {}) =>
      fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      }),
    stop: () => running.stop(),
  };
}

describe('the service app skeleton, over HTTP', () => {
  const logs = captureLogs();
  const readiness = createReadiness({ dependency: async () => undefined });
  let served: Awaited<ReturnType<typeof serveKitApp>>;

  beforeAll(async () => {
    served = await serveKitApp('kit-test', logs, {
      readiness,
      routes: (router) => {
        postRoute(router, '/echo', (req, res) => {
          const body = parseBody(z.object({ name: z.string() }), req.body, requestContext(res).language);
          res.json({ name: body.name, language: requestContext(res).language });
        });
        postRoute(router, '/boom', () => {
          throw new Error('database password is hunter2');
        });
        postRoute(router, '/logs', (_req, res) => {
          requestContext(res).log.info({ step: 'handler' }, 'handler line');
          res.json({ ok: true });
        });
        postRoute(router, '/down', () => {
          throw new AppError('SERVICE_UNAVAILABLE', { internal: 'redis refused' });
        });
      },
    });
  });

  afterAll(() => served.stop());

  it('when the request is valid, it answers and echoes a generated request id', async () => {
    const response = await served.post('/echo', '{"name":"x","extra":1}');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ name: 'x', language: 'en' });
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('when a request id is given, it is kept; when it is unsafe, a new one is made', async () => {
    expect(
      (await served.post('/echo', '{"name":"x"}', { 'x-request-id': 'abc-123' })).headers.get('x-request-id'),
    ).toBe('abc-123');
    const unsafe = await served.post('/echo', '{"name":"x"}', { 'x-request-id': 'a b<script>' });
    expect(unsafe.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('when a request completes, one access line and the handler lines carry its request id', async () => {
    const response = await served.post('/logs', '{}', { 'x-request-id': 'log-check-1' });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    await new Promise((resolve) => setImmediate(resolve));
    const mine = logs.lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.request_id === 'log-check-1');
    expect(mine.map(({ time: _time, duration_ms: _ms, ...rest }) => rest)).toEqual([
      { level: 'info', service: 'kit-test', request_id: 'log-check-1', step: 'handler', msg: 'handler line' },
      {
        level: 'info',
        service: 'kit-test',
        request_id: 'log-check-1',
        method: 'POST',
        path: '/logs',
        status: 200,
        msg: 'request completed',
      },
    ]);
    expect(mine[1]?.duration_ms).toEqual(expect.any(Number));
    expect(Object.keys(mine[1] ?? {}).slice(0, 4)).toEqual(['level', 'time', 'service', 'request_id']);
  });

  it('when Accept-Language prefers French, messages are French', async () => {
    const response = await served.post('/echo', '{"name":1}', { 'accept-language': 'fr-CH, de;q=0.5' });
    expect(response.status).toBe(400);
    const problem = problemSchema.parse(await response.json());
    expect(problem).toMatchObject({ code: 'VALIDATION_FAILED', title: 'Échec de la validation' });
    expect(problem.errors).toEqual([{ path: 'name', message: expect.any(String) }]);
  });

  it.each([
    ['malformed JSON', '/echo', '{"name":', {}, 400, 'MALFORMED_JSON'],
    [
      'a body over the limit',
      '/echo',
      JSON.stringify({ name: 'x'.repeat(2000) }),
      {},
      413,
      'PAYLOAD_TOO_LARGE',
    ],
    [
      'a non-JSON content type',
      '/echo',
      'name=x',
      { 'content-type': 'application/x-www-form-urlencoded' },
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    ['an unknown path', '/nowhere', '{}', {}, 404, 'NOT_FOUND'],
    ['a dependency that is down', '/down', '{}', {}, 503, 'SERVICE_UNAVAILABLE'],
  ])('when it gets %s, it answers a %i problem', async (_name, path, body, headers, status, code) => {
    const response = await served.post(path, body, headers);
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const problem = problemSchema.parse(await response.json());
    expect(problem).toMatchObject({ status, code, request_id: response.headers.get('x-request-id') });
    if (status === 503) expect(response.headers.get('retry-after')).toBe('5');
  });

  it('when a handler throws an unknown error, the answer is a 500 without internals, and the log has them', async () => {
    const response = await served.post('/boom', '{}', { 'x-request-id': 'boom-1' });
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain('hunter2');
    expect(JSON.parse(text).code).toBe('INTERNAL_ERROR');
    expect(logs.lines.some((line) => line.includes('boom-1') && line.includes('hunter2'))).toBe(true);
  });

  it('when a POST path is called with GET, it is 405 with Allow', async () => {
    const response = await fetch(`${served.url}/echo`);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });

  it('when the Authorization header is logged, it is redacted', async () => {
    const logger = createLogger({ service: 'kit-test', level: 'info', destination: logs.destination });
    logger.info(
      { req: { headers: { authorization: 'Bearer secret-token' } }, password: 'pw' },
      'redaction check',
    );
    const line = logs.lines.find((entry) => entry.includes('redaction check'));
    expect(line).toBeDefined();
    expect(line).not.toContain('secret-token');
    expect(line).not.toContain('"pw"');
  });

  it('serves /livez, /readyz and /metrics', async () => {
    expect((await fetch(`${served.url}/livez`)).status).toBe(200);
    const ready = await fetch(`${served.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { dependency: 'up' } });
    const metrics = await (await fetch(`${served.url}/metrics`)).text();
    expect(metrics).toContain('http_request_duration_seconds_bucket');
  });

  it('when a dependency check fails, /readyz is 503 and /livez stays 200', async () => {
    readiness.checks.broken = async () => {
      throw new Error('connection refused');
    };
    const ready = await fetch(`${served.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { checks: Record<string, string> }).checks.broken).toBe(
      'down: connection refused',
    );
    expect((await fetch(`${served.url}/livez`)).status).toBe(200);
    delete readiness.checks.broken;
  });
});

describe('hot routes (matched first and exactly, reading their own bodies)', () => {
  const logs = captureLogs();
  const readiness = createReadiness({});
  let served: Awaited<ReturnType<typeof serveKitApp>>;

  beforeAll(async () => {
    served = await serveKitApp('kit-direct', logs, {
      readiness,
      hotRoutes: (router) => {
        postRoute(router, '/direct', async (req, res) => {
          const context = requestContext(res);
          const body = parseBody(
            z.object({ name: z.string() }),
            await readJsonBody(req, 1024),
            context.language,
          );
          sendJson(res, 200, { name: body.name, language: context.language, path: req.url });
        });
        postRoute(router, '/direct-async', async () => {
          await Promise.resolve();
          throw new AppError('SERVICE_UNAVAILABLE', { internal: 'store down' });
        });
        postRoute(router, '/direct-breaks', async (_req, res) => {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.write('{"half":');
          throw new Error('failed after the answer began');
        });
      },
      routes: (router) => {
        postRoute(router, '/routed', (req, res) => {
          res.json({
            name: parseBody(z.object({ name: z.string() }), req.body, requestContext(res).language).name,
          });
        });
      },
    });
  });

  afterAll(() => served.stop());

  it('when the POST matches, it answers with request id, language, access log and metrics', async () => {
    const response = await served.post('/direct?via=query', '{"name":"anna"}', {
      'accept-language': 'de',
      'x-request-id': 'direct-1',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('direct-1');
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual({ name: 'anna', language: 'de', path: '/direct?via=query' });
    await new Promise((resolve) => setImmediate(resolve));
    const line = logs.lines
      .map((text) => JSON.parse(text) as Record<string, unknown>)
      .find((entry) => entry.request_id === 'direct-1' && entry.msg === 'request completed');
    expect(line).toMatchObject({ method: 'POST', path: '/direct', status: 200 });
    const metrics = await (await fetch(`${served.url}/metrics`)).text();
    expect(metrics).toContain('route="/direct",status="200"');
  });

  it.each([
    ['malformed JSON', '{"name":', {}, 400, 'MALFORMED_JSON'],
    ['an invalid body', '{"name":1}', {}, 400, 'VALIDATION_FAILED'],
    ['a body over the limit', JSON.stringify({ name: 'x'.repeat(2000) }), {}, 413, 'PAYLOAD_TOO_LARGE'],
    ['a non-JSON type', 'name=x', { 'content-type': 'text/plain' }, 415, 'UNSUPPORTED_MEDIA_TYPE'],
  ])(
    'when it gets %s, a hot route reading its body and a route behind the kit parser answer the same problem',
    async (_name, body, headers, status, code) => {
      const answers = [];
      for (const path of ['/direct', '/routed']) {
        const response = await served.post(path, body, { 'accept-language': 'fr', ...headers });
        expect(response.status).toBe(status);
        expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        const { request_id: requestId, ...problem } = problemSchema.parse(await response.json());
        expect(requestId).toBe(response.headers.get('x-request-id'));
        answers.push(problem);
      }
      expect(answers[0]).toMatchObject({ status, code });
      expect(answers[1]).toEqual(answers[0]);
    },
  );

  it('when a handler rejects, the answer is the kit problem with Retry-After for a 503', async () => {
    const down = await served.post('/direct-async', '{}');
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('5');
    expect(problemSchema.parse(await down.json()).code).toBe('SERVICE_UNAVAILABLE');
  });

  it('when a handler fails after its answer began, the connection is cut and the failure logged', async () => {
    await expect(
      served.post('/direct-breaks', '{}', { 'x-request-id': 'breaks-1' }).then((r) => r.text()),
    ).rejects.toThrow();
    expect(
      logs.lines.some((line) => line.includes('breaks-1') && line.includes('failed after the answer began')),
    ).toBe(true);
  });

  it('when another method is used, it is 405 with Allow', async () => {
    const get = await fetch(`${served.url}/direct`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(problemSchema.parse(await get.json()).code).toBe('METHOD_NOT_ALLOWED');
  });

  it('when the path differs in case or by a trailing slash, it is not the hot route but a 404', async () => {
    for (const path of ['/Direct', '/direct/']) {
      const response = await served.post(path, '{"name":"anna"}');
      expect(response.status).toBe(404);
      expect(problemSchema.parse(await response.json()).code).toBe('NOT_FOUND');
    }
  });
});
