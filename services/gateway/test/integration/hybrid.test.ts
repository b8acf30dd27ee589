import { randomUUID } from 'node:crypto';
import { createRpcServer, rpcQueueName, type RpcServer } from '@spam-check/amqp-rpc';
import { hybridResultSchema } from '@spam-check/contracts';
import { amqpUrl } from '@spam-check/test-support';
import { connect } from 'amqplib';
import {
  delay,
  json,
  mailResult,
  obtainToken,
  sendJson,
  silentLogger,
  startAuth,
  startGatewayForTest,
  startScriptedServer,
  textResult,
  type RecordedRequest,
  type Running,
} from './support/servers';
import { removeStackQueues } from './support/queues';

type Scripted = Awaited<ReturnType<typeof startScriptedServer>>;

const isSpamAddress = (email: string) => email.startsWith('spam');
const textVerdictOf = (title: string) =>
  title === 'spam' ? 'spam' : title === 'suspicious' ? 'suspicious' : ('ham' as const);

/** HTTP detectors answering by content: an address starting with "spam" is spam; the title is the verdict. */
/**
 * Scripted detectors. With `together`, each answers only once both have a request: if the gateway sent them one
 * after the other, the first would never answer and the check would fail, so a 200 shows both were in flight
 * at the same time, however slow the machine.
 */
async function startHttpDetectors(together = false): Promise<{ email: Scripted; text: Scripted }> {
  let arrived = 0;
  let bothArrived!: () => void;
  const both = new Promise<void>((resolve) => (bothArrived = resolve));
  const meet = async () => {
    if (!together) return;
    arrived += 1;
    if (arrived === 2) bothArrived();
    await both;
  };
  const email = await startScriptedServer(async (req: RecordedRequest, res) => {
    await meet();
    const { email: address } = JSON.parse(req.body) as { email: string };
    sendJson(res, 200, mailResult(isSpamAddress(address), String(req.headers['x-request-id'])));
  });
  const text = await startScriptedServer(async (req: RecordedRequest, res) => {
    await meet();
    const { title } = JSON.parse(req.body) as { title: string };
    sendJson(res, 200, textResult(textVerdictOf(title), String(req.headers['x-request-id'])));
  });
  return { email, text };
}

const hybrid = (gateway: Running, token: string, body: object, headers: Record<string, string> = {}) =>
  fetch(`${gateway.url}/frapi/v1/spam/hybrid-check`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

const CLEAN = { email: 'anna@example.org', title: 'Hello', body: 'Nice article', sub_title: 'Thanks' };
const SPAM_ADDRESS = { ...CLEAN, email: 'spammer@example.org' };
/** The answer of a step-by-step check that a spam e-mail ended: the text was never checked. */
const STOPPED_AT_SPAM_EMAIL = {
  mode: 'step_by_step',
  spam: true,
  verdict: 'spam',
  text: null,
  skipped: ['text'],
};

let auth: Running;
beforeAll(async () => {
  auth = await startAuth();
});
afterAll(() => auth.stop());

describe('hybrid check over HTTP (parallel, and step-by-step without AMQP_URL)', () => {
  let detectors: { email: Scripted; text: Scripted };
  let gateway: Running;
  let token: string;

  beforeAll(async () => {
    detectors = await startHttpDetectors();
    gateway = await startGatewayForTest({
      AUTH_URL: auth.url,
      EMAIL_DETECTOR_URL: detectors.email.url,
      TEXT_DETECTOR_URL: detectors.text.url,
    });
    token = await obtainToken(gateway.url);
  });
  afterAll(async () => {
    await gateway.stop();
    await Promise.all([detectors.email.stop(), detectors.text.stop()]);
  });

  it('in parallel mode, both detectors are asked at the same time: each answers only once both were asked', async () => {
    const meeting = await startHttpDetectors(true);
    const meetingGateway = await startGatewayForTest({
      AUTH_URL: auth.url,
      EMAIL_DETECTOR_URL: meeting.email.url,
      TEXT_DETECTOR_URL: meeting.text.url,
    });
    try {
      const response = await hybrid(meetingGateway, token, CLEAN);
      expect(response.status).toBe(200);
      expect((await json(response)).mode).toBe('parallel');
      expect(meeting.email.requests).toHaveLength(1);
      expect(meeting.text.requests).toHaveLength(1);
    } finally {
      await meetingGateway.stop();
      await Promise.all([meeting.email.stop(), meeting.text.stop()]);
    }
  });

  it('answers the hybrid result shape with the gateway request id and the detectors results', async () => {
    const response = await hybrid(gateway, token, CLEAN, { 'X-Request-Id': 'hybrid-shape-1' });
    expect(response.status).toBe(200);
    const result = hybridResultSchema.parse(await json(response));
    expect(result).toMatchObject({
      mode: 'parallel',
      spam: false,
      verdict: 'ham',
      skipped: [],
      request_id: 'hybrid-shape-1',
    });
    expect(result.email.request_id).toBe('hybrid-shape-1');
    expect(result.text?.request_id).toBe('hybrid-shape-1');
    expect(JSON.parse(detectors.text.requests.at(-1)!.body)).toEqual({
      title: 'Hello',
      body: 'Nice article',
      sub_title: 'Thanks',
    });
    expect(JSON.parse(detectors.email.requests.at(-1)!.body)).toEqual({ email: 'anna@example.org' });
    expect(detectors.text.requests.at(-1)!.headers).toMatchObject({
      'accept-language': 'fr',
      'x-client-id': 'test-client',
      'x-request-id': 'hybrid-shape-1',
    });
  });

  it.each([
    ['anna@example.org', 'Hello', false, 'ham', 0.1],
    ['anna@example.org', 'suspicious', false, 'suspicious', 0.55],
    ['anna@example.org', 'spam', true, 'spam', 0.9],
    ['spam@example.org', 'Hello', true, 'spam', 0.95],
    ['spam@example.org', 'suspicious', true, 'spam', 0.95],
  ])(
    'when the e-mail is %s and the text %s, the combined verdict is spam=%s, %s, score %s',
    async (email, title, spam, verdict, score) => {
      const response = await hybrid(gateway, token, { email, title, body: 'b' });
      expect(await json(response)).toMatchObject({ spam, verdict, score, mode: 'parallel', skipped: [] });
    },
  );

  const yes = ['true', '1', 'yes', 'on', 'TRUE', 'Yes', ' on ', '\tOn', 'YES '];
  const no = ['false', '0', 'no', 'off', 'FALSE', 'Off', ' no ', '', '   '];
  it.each([
    ...yes.map((value) => [value, 'step_by_step'] as const),
    ...no.map((value) => [value, 'parallel'] as const),
  ])('when X-Internal-Step-By-Step is %j, the mode is %s', async (value, mode) => {
    const response = await hybrid(gateway, token, CLEAN, { 'X-Internal-Step-By-Step': value });
    expect(response.status).toBe(200);
    expect((await json(response)).mode).toBe(mode);
  });

  it('when X-Internal-Step-By-Step is absent, both checks run in parallel', async () => {
    expect((await json(await hybrid(gateway, token, CLEAN))).mode).toBe('parallel');
  });

  it.each(['maybe', '2', 'y', 'n', 'truee', 'true,false', 'on off', '-1', 'null'])(
    'when X-Internal-Step-By-Step is %j, it is 400 INVALID_HEADER and no detector is called',
    async (value) => {
      const before = detectors.email.requests.length + detectors.text.requests.length;
      const response = await hybrid(gateway, token, CLEAN, { 'X-Internal-Step-By-Step': value });
      expect(response.status).toBe(400);
      expect((await json(response)).code).toBe('INVALID_HEADER');
      expect(detectors.email.requests.length + detectors.text.requests.length).toBe(before);
    },
  );

  it('in step-by-step mode over HTTP, a spam e-mail means the text detector gets no request', async () => {
    const before = detectors.text.requests.length;
    const response = await hybrid(gateway, token, SPAM_ADDRESS, { 'X-Internal-Step-By-Step': 'true' });
    expect(await json(response)).toMatchObject(STOPPED_AT_SPAM_EMAIL);
    expect(detectors.text.requests).toHaveLength(before);
  });

  it('in step-by-step mode over HTTP, a clean e-mail is followed by the text check', async () => {
    const before = detectors.text.requests.length;
    const response = await hybrid(
      gateway,
      token,
      { ...CLEAN, title: 'spam' },
      { 'X-Internal-Step-By-Step': '1' },
    );
    expect(await json(response)).toMatchObject({ mode: 'step_by_step', spam: true, skipped: [] });
    expect(detectors.text.requests).toHaveLength(before + 1);
  });
});

describe('hybrid check step by step over RabbitMQ RPC', () => {
  const unique = randomUUID();
  const queues = {
    email: `test.gateway.${unique}.email`,
    text: `test.gateway.${unique}.text`,
    webhooks: `test.gateway.${unique}.webhooks`,
  };
  const nobody = `test.gateway.${unique}.nobody`;
  const amqpEnv = {
    AMQP_URL: amqpUrl(),
    EMAIL_RPC_QUEUE: queues.email,
    TEXT_RPC_QUEUE: queues.text,
    WEBHOOK_QUEUE: queues.webhooks,
  };
  const calls: { email: { payload: unknown; headers: Record<string, string> }[]; text: unknown[] } = {
    email: [],
    text: [],
  };
  let servers: RpcServer[];
  let http: { email: Scripted; text: Scripted };
  let gateway: Running;
  let token: string;

  beforeAll(async () => {
    const logger = silentLogger();
    servers = [
      createRpcServer({
        url: amqpUrl(),
        queue: queues.email,
        logger,
        handler: async (payload, headers) => {
          calls.email.push({ payload, headers });
          const { email } = payload as { email: string };
          if (email.startsWith('slow')) await delay(1500);
          if (email.startsWith('reject'))
            throw Object.assign(new Error('refused'), {
              problem: { code: 'VALIDATION_FAILED', status: 400, errors: [{ path: 'email', message: 'no' }] },
            });
          if (email.startsWith('broken')) return { not: 'a result' };
          return mailResult(isSpamAddress(email), headers['x-request-id']);
        },
      }),
      createRpcServer({
        url: amqpUrl(),
        queue: queues.text,
        logger,
        handler: async (payload, headers) => {
          calls.text.push(payload);
          return textResult(textVerdictOf((payload as { title: string }).title), headers['x-request-id']);
        },
      }),
    ];
    await Promise.all(servers.map((server) => server.ready()));
    http = await startHttpDetectors();
    gateway = await startGatewayForTest({
      AUTH_URL: auth.url,
      EMAIL_DETECTOR_URL: http.email.url,
      TEXT_DETECTOR_URL: http.text.url,
      ...amqpEnv,
      DETECTOR_TIMEOUT_MS: '700',
    });
    token = await obtainToken(gateway.url);
  });

  afterAll(async () => {
    await gateway.stop();
    await Promise.all(servers.map((server) => server.close()));
    await Promise.all([http.email.stop(), http.text.stop()]);
    await removeStackQueues(amqpEnv);
  });

  async function textQueueDepth(): Promise<number> {
    const connection = await connect(amqpUrl());
    try {
      const channel = await connection.createChannel();
      return (await channel.checkQueue(rpcQueueName(queues.text, 'quorum'))).messageCount;
    } finally {
      await connection.close();
    }
  }

  it('when the e-mail is spam, the text detector receives no message at all', async () => {
    const before = calls.text.length;
    const response = await hybrid(gateway, token, SPAM_ADDRESS, {
      'X-Internal-Step-By-Step': 'yes',
      'X-Request-Id': 'rpc-spam-1',
    });
    expect(response.status).toBe(200);
    expect(await json(response)).toMatchObject({ ...STOPPED_AT_SPAM_EMAIL, request_id: 'rpc-spam-1' });
    await delay(100);
    expect(calls.text).toHaveLength(before);
    expect(await textQueueDepth()).toBe(0);
    expect(calls.email.at(-1)).toEqual({
      payload: { email: 'spammer@example.org' },
      headers: expect.objectContaining({
        'x-request-id': 'rpc-spam-1',
        'accept-language': 'fr',
        'x-client-id': 'test-client',
      }),
    });
    expect(http.email.requests).toHaveLength(0);
    expect(http.text.requests).toHaveLength(0);
  });

  it('when the e-mail is clean, the text detector receives the text, and the result matches HTTP mode', async () => {
    const before = calls.text.length;
    const overRpc = await json(
      await hybrid(gateway, token, { ...CLEAN, title: 'suspicious' }, { 'X-Internal-Step-By-Step': 'on' }),
    );
    expect(calls.text).toHaveLength(before + 1);
    expect(calls.text.at(-1)).toEqual({ title: 'suspicious', body: 'Nice article', sub_title: 'Thanks' });
    expect(overRpc).toMatchObject({
      mode: 'step_by_step',
      spam: false,
      verdict: 'suspicious',
      score: 0.55,
      skipped: [],
    });
    hybridResultSchema.parse(overRpc);

    const overHttp = await json(await hybrid(gateway, token, { ...CLEAN, title: 'suspicious' }));
    expect(overHttp).toMatchObject({
      mode: 'parallel',
      spam: overRpc.spam,
      verdict: overRpc.verdict,
      score: overRpc.score,
    });
  });

  it.each([
    ['does not reply within DETECTOR_TIMEOUT_MS', 'slow@example.org', 504, { code: 'DETECTOR_TIMEOUT' }],
    [
      'replies with a problem, the same problem is answered',
      'reject@example.org',
      400,
      { code: 'VALIDATION_FAILED', errors: [{ path: 'email', message: 'no' }] },
    ],
    [
      'replies with something that is not a result',
      'broken@example.org',
      502,
      { code: 'BAD_DETECTOR_RESPONSE' },
    ],
  ])('when the e-mail detector %s (%s), it is %i', async (_when, email, status, problem) => {
    const response = await hybrid(gateway, token, { ...CLEAN, email }, { 'X-Internal-Step-By-Step': 'true' });
    expect(response.status).toBe(status);
    expect(await json(response)).toMatchObject(problem);
  });

  it('when nothing consumes the text queue, a clean e-mail ends in 503', async () => {
    const orphan = await startGatewayForTest({
      AUTH_URL: auth.url,
      ...amqpEnv,
      TEXT_RPC_QUEUE: nobody,
      DETECTOR_TIMEOUT_MS: '700',
    });
    try {
      const response = await hybrid(orphan, token, CLEAN, { 'X-Internal-Step-By-Step': 'true' });
      expect(response.status).toBe(503);
      expect((await json(response)).code).toBe('SERVICE_UNAVAILABLE');
    } finally {
      await orphan.stop();
    }
  });
});
