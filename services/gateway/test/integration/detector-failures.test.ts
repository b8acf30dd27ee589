import { ERROR_CATALOGUE } from '@spam-check/contracts';
import { freePort } from '@spam-check/process-kit';
import {
  delay,
  json,
  mailResult,
  obtainToken,
  sendJson,
  textResult,
  type Behaviour,
  type Running,
} from './support/servers';
import { startStack, type Stack } from './support/stack';

/** The detector timeout of the cases that test it: each of them answers far later, or never. */
const TIMEOUT_MS = 300;
/**
 * The detector timeout of every other case: one that no prompt answer comes near, so that a loaded machine
 * cannot turn a bad answer into a timeout.
 */
const ANSWER_TIMEOUT_MS = 60_000;
/** An answer over the gateway's 4 MiB, made once: building it per request took much of TIMEOUT_MS under load. */
const overFourMiB = JSON.stringify({ padding: 'x'.repeat(5 * 1024 * 1024) });

describe('detector failures through the gateway (real misbehaving HTTP servers)', () => {
  let stack: Stack;
  let token: string;

  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.stop());

  /** A gateway whose detectors (both) are `detectorUrl`. */
  async function gatewayWith(detectorUrl: string, timeoutMs = ANSWER_TIMEOUT_MS): Promise<Running> {
    const gateway = await stack.gateway({
      EMAIL_DETECTOR_URL: detectorUrl,
      TEXT_DETECTOR_URL: detectorUrl,
      DETECTOR_TIMEOUT_MS: String(timeoutMs),
    });
    token ??= await obtainToken(gateway.url);
    return gateway;
  }

  const detectorThat = async (behaviour: Behaviour) => (await stack.scripted(behaviour)).url;

  const CHECKS = [
    ['mail', '/deapi/v1/spam/mail', { email: 'a@example.org' }],
    ['text', '/deapi/v1/spam/text', { title: 't', body: 'b' }],
    ['hybrid', '/deapi/v1/spam/hybrid-check', { title: 't', body: 'b', email: 'a@example.org' }],
  ] as const;

  const call = (gateway: Running, path: string, body: unknown) =>
    fetch(`${gateway.url}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });

  /** A mail check through a gateway in front of the detector at `detectorUrl`. */
  const mailCheckThrough = async (detectorUrl: string) =>
    call(await gatewayWith(detectorUrl), '/deapi/v1/spam/mail', { email: 'a@b.c' });

  async function expectProblem(response: Response, status: number, code: keyof typeof ERROR_CATALOGUE) {
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    const problem = await json(response);
    expect(problem).toMatchObject({ status, code, detail: ERROR_CATALOGUE[code].detail.de });
    expect(JSON.stringify(problem)).not.toMatch(/ECONN|socket|127\.0\.0\.1|stack/i);
  }

  it.each(CHECKS)(
    'when the detector is down, the %s check is 503 with Retry-After',
    async (_name, path, body) => {
      const gateway = await gatewayWith(`http://127.0.0.1:${await freePort()}`);
      const response = await call(gateway, path, body);
      expect(response.headers.get('retry-after')).toBe('5');
      await expectProblem(response, 503, 'SERVICE_UNAVAILABLE');
    },
  );

  it.each(CHECKS)(
    'when the detector is slower than its timeout, the %s check is 504',
    async (_name, path, body) => {
      const url = await detectorThat(async (_req, res) => {
        await delay(TIMEOUT_MS * 5);
        sendJson(res, 200, mailResult(false));
      });
      const gateway = await gatewayWith(url, TIMEOUT_MS);
      await expectProblem(await call(gateway, path, body), 504, 'DETECTOR_TIMEOUT');
    },
  );

  it.each(CHECKS)(
    'when the detector sends headers at once but drips the body past the timeout, the %s check is 504',
    async (_name, path, body) => {
      const url = await detectorThat(async (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        for (let i = 0; i < 10; i += 1) {
          res.write(' ');
          await delay(TIMEOUT_MS / 3);
        }
        res.end(JSON.stringify(mailResult(false)));
      });
      const gateway = await gatewayWith(url, TIMEOUT_MS);
      await expectProblem(await call(gateway, path, body), 504, 'DETECTOR_TIMEOUT');
    },
  );

  it.each(CHECKS)(
    'when the detector answers something that is not JSON, the %s check is 502',
    async (_name, path, body) => {
      const url = await detectorThat((_req, res) => sendJson(res, 200, '<html>oops</html>', 'text/html'));
      const gateway = await gatewayWith(url);
      await expectProblem(await call(gateway, path, body), 502, 'BAD_DETECTOR_RESPONSE');
    },
  );

  it.each(CHECKS)(
    'when the detector answers JSON of the wrong shape, the %s check is 502',
    async (_name, path, body) => {
      const url = await detectorThat((_req, res) => sendJson(res, 200, { spam: 'maybe', score: 7 }));
      const gateway = await gatewayWith(url);
      await expectProblem(await call(gateway, path, body), 502, 'BAD_DETECTOR_RESPONSE');
    },
  );

  it('when the mail detector answers a text result (valid JSON, wrong result type), it is 502', async () => {
    const url = await detectorThat((_req, res) => sendJson(res, 200, textResult('ham')));
    await expectProblem(await mailCheckThrough(url), 502, 'BAD_DETECTOR_RESPONSE');
  });

  it('when the detector answers 500, it is 502 and nothing of its answer leaks', async () => {
    const url = await detectorThat((_req, res) => sendJson(res, 500, { stack: 'Error at secret.ts:1' }));
    await expectProblem(await mailCheckThrough(url), 502, 'BAD_DETECTOR_RESPONSE');
  });

  it('when the detector closes the connection without answering, it is 503', async () => {
    const url = await detectorThat((_req, res) => {
      res.socket?.destroy();
    });
    const gateway = await gatewayWith(url);
    await expectProblem(
      await call(gateway, '/deapi/v1/spam/text', { title: 't', body: 'b' }),
      503,
      'SERVICE_UNAVAILABLE',
    );
  });

  it.each(CHECKS)(
    'when the detector refuses the request with a problem, the %s check passes that problem on',
    async (_name, path, body) => {
      const url = await detectorThat((req, res) =>
        sendJson(
          res,
          400,
          {
            type: '/docs#error-VALIDATION_FAILED',
            title: 'Validation failed',
            status: 400,
            detail: 'x',
            code: 'VALIDATION_FAILED',
            request_id: String(req.headers['x-request-id']),
            errors: [{ path: 'email', message: 'not accepted' }],
          },
          'application/problem+json',
        ),
      );
      const gateway = await gatewayWith(url);
      const response = await call(gateway, path, body);
      expect(response.status).toBe(400);
      const problem = await json(response);
      expect(problem).toMatchObject({
        code: 'VALIDATION_FAILED',
        detail: ERROR_CATALOGUE.VALIDATION_FAILED.detail.de,
        errors: [{ path: 'email', message: 'not accepted' }],
        request_id: response.headers.get('x-request-id'),
      });
    },
  );

  it('when the detector is unavailable itself (503 problem), the gateway answers 503', async () => {
    const url = await detectorThat((_req, res) =>
      sendJson(res, 503, {
        type: 't',
        title: 't',
        status: 503,
        detail: 'd',
        code: 'SERVICE_UNAVAILABLE',
        request_id: 'r',
      }),
    );
    await expectProblem(await mailCheckThrough(url), 503, 'SERVICE_UNAVAILABLE');
  });

  it.each([
    ['its number of seconds', '7', '7'],
    ['an HTTP date (not kept)', 'Wed, 21 Oct 2037 07:28:00 GMT', '1'],
    ['more than a day (not kept)', '86401', '1'],
  ])(
    "when the detector refuses with 429 and a Retry-After of %s, the client's answer says when to come back",
    async (_what, sent, passed) => {
      const url = await detectorThat((_req, res) => {
        res.setHeader('Retry-After', sent);
        sendJson(res, 429, {
          type: 't',
          title: 't',
          status: 429,
          detail: 'd',
          code: 'RATE_LIMITED',
          request_id: 'r',
        });
      });
      const response = await call(await gatewayWith(url), '/deapi/v1/spam/text', { title: 't', body: 'b' });
      await expectProblem(response, 429, 'RATE_LIMITED');
      expect(response.headers.get('retry-after')).toBe(passed);
    },
  );

  it('when the same detector misbehaves, the proxied check and the orchestrated hybrid checks answer the same status and code', async () => {
    let behaviour: Behaviour = (_req, res) => sendJson(res, 200, mailResult(false));
    const detector = await detectorThat((req, res) => behaviour(req, res));
    const scripted = await gatewayWith(detector);
    const timed = await gatewayWith(detector, TIMEOUT_MS);
    const down = await gatewayWith(`http://127.0.0.1:${await freePort()}`);
    const problem = (status: number, code: string) => ({
      type: `/docs#error-${code}`,
      title: 't',
      status,
      detail: 'd',
      code,
      request_id: 'r',
    });
    const cases: [string, Behaviour | 'down', number, string][] = [
      ['down', 'down', 503, 'SERVICE_UNAVAILABLE'],
      [
        'slower than the timeout',
        async (_req, res) => {
          await delay(TIMEOUT_MS * 3);
          sendJson(res, 200, mailResult(false));
        },
        504,
        'DETECTOR_TIMEOUT',
      ],
      [
        'not JSON',
        (_req, res) => sendJson(res, 200, '<html>oops</html>', 'text/html'),
        502,
        'BAD_DETECTOR_RESPONSE',
      ],
      ['the wrong shape', (_req, res) => sendJson(res, 200, { spam: 'maybe' }), 502, 'BAD_DETECTOR_RESPONSE'],
      ['500', (_req, res) => sendJson(res, 500, { stack: 'x' }), 502, 'BAD_DETECTOR_RESPONSE'],
      ['an answer over 4 MiB', (_req, res) => sendJson(res, 200, overFourMiB), 502, 'BAD_DETECTOR_RESPONSE'],
      ['a closed connection', (_req, res) => void res.socket?.destroy(), 503, 'SERVICE_UNAVAILABLE'],
      [
        'its own 400 problem',
        (_req, res) => sendJson(res, 400, problem(400, 'VALIDATION_FAILED'), 'application/problem+json'),
        400,
        'VALIDATION_FAILED',
      ],
      [
        'its own 503 problem',
        (_req, res) => sendJson(res, 503, problem(503, 'SERVICE_UNAVAILABLE')),
        503,
        'SERVICE_UNAVAILABLE',
      ],
    ];
    const outcome = async (response: Response) => ({
      status: response.status,
      code: ((await json(response)) as { code?: string }).code,
    });
    for (const [name, misbehaviour, status, code] of cases) {
      const gateway = misbehaviour === 'down' ? down : status === 504 ? timed : scripted;
      if (misbehaviour !== 'down') behaviour = misbehaviour;
      const email = 'a@example.org';
      const proxied = await outcome(await call(gateway, '/deapi/v1/spam/mail', { email }));
      const parallel = await outcome(
        await call(gateway, '/deapi/v1/spam/hybrid-check', { title: 't', body: 'b', email }),
      );
      const stepByStep = await outcome(
        await fetch(`${gateway.url}/deapi/v1/spam/hybrid-check`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${token}`,
            'Content-Type': 'application/json',
            'X-Internal-Step-By-Step': 'true',
          },
          body: JSON.stringify({ title: 't', body: 'b', email }),
        }),
      );
      expect({ name, proxied, parallel, stepByStep }).toEqual({
        name,
        proxied: { status, code },
        parallel: { status, code },
        stepByStep: { status, code },
      });
    }
  });

  it('after a failure, the next good answer passes again over the same keep-alive agent', async () => {
    let fail = true;
    const url = await detectorThat((req, res) => {
      if (fail) return sendJson(res, 200, 'not json');
      sendJson(res, 200, mailResult(true, String(req.headers['x-request-id'])));
    });
    const gateway = await gatewayWith(url);
    expect((await call(gateway, '/deapi/v1/spam/mail', { email: 'a@b.c' })).status).toBe(502);
    fail = false;
    const response = await call(gateway, '/deapi/v1/spam/mail', { email: 'a@b.c' });
    expect(response.status).toBe(200);
    expect((await json(response)).spam).toBe(true);
  });
});
