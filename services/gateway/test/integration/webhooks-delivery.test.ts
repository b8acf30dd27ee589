import { randomUUID } from 'node:crypto';
import { connect } from 'amqplib';
import { amqpUrl, TcpProxy } from '@spam-check/test-support';
import { webhookQueueNames } from '../../src/data-access/webhook-queue-amqp';
import { retryDelays } from '../../src/domain/webhook-retry';
import { startScriptedServer } from './support/servers';
import { laterReceiver, startReceiver, startWebhookStack, verified, waitFor } from './support/webhooks';

// Deliveries through a real RabbitMQ (reached through a TCP proxy the tests can cut) to receivers on
// loopback, with retry waits of 50 to 400 ms.
describe('webhook deliveries over RabbitMQ', () => {
  const run = randomUUID().slice(0, 8);
  const retry = {
    WEBHOOK_RETRY_BASE_MS: '50',
    WEBHOOK_RETRY_MAX_DELAY_MS: '400',
    WEBHOOK_ALLOW_PRIVATE: 'true',
  };
  const queues = {
    main: `webhooks-test-${run}`,
    short: `webhooks-test-${run}-short`,
    handover: `webhooks-test-${run}-handover`,
    slots: `webhooks-test-${run}-slots`,
  };
  // Retries ten minutes apart: a delivery that went back through a retry wait would not arrive in a test.
  const slowRetry = { WEBHOOK_RETRY_BASE_MS: '600000', WEBHOOK_RETRY_MAX_DELAY_MS: '600000' };
  const turns = webhookQueueNames(`webhooks-test-${run}-turns`, [600_000]);
  let stack: Awaited<ReturnType<typeof startWebhookStack>>;
  let proxy: TcpProxy;
  let admin: Awaited<ReturnType<typeof stack.admin>>;
  let base: string;
  const stoppers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    stack = await startWebhookStack();
    proxy = await TcpProxy.start(amqpUrl(), 5672);
    const gateway = await stack.gateway({
      ...retry,
      AMQP_URL: proxy.url,
      WEBHOOK_QUEUE: queues.main,
      WEBHOOK_TIMEOUT_MS: '10000',
    });
    base = gateway.url;
    admin = await stack.admin(base);
  });

  afterEach(async () => {
    await Promise.all(stoppers.splice(0).map((stop) => stop()));
  });

  afterAll(async () => {
    await stack.stop();
    await proxy.close();
    const connection = await connect(amqpUrl());
    const channel = await connection.createChannel();
    const delays = retryDelays({ baseMs: 50, maxDelayMs: 400, windowMs: 0 });
    for (const queue of Object.values(queues))
      for (const name of webhookQueueNames(queue, delays).all) await channel.deleteQueue(name);
    for (const name of turns.all) await channel.deleteQueue(name);
    await connection.close();
  });

  const receiver = async (answer: Parameters<typeof startReceiver>[0]) => {
    const started = await startReceiver(answer);
    stoppers.push(started.stop);
    return started;
  };
  /** A gateway of the stack whose webhook queue `queue` is on the shared RabbitMQ; `env` adds to it. */
  const brokerGateway = (queue: string, env: Record<string, string> = {}) =>
    stack.gateway({ ...retry, AMQP_URL: amqpUrl(), WEBHOOK_QUEUE: queue, ...env });
  /** Two new sites of `siteAdmin` with a hook on `check.spam` each: one's receiver hangs, the other's answers. */
  const slowAndFastSites = async (siteAdmin: typeof admin) => {
    const [slowSite, fastSite] = [await siteAdmin.site(), await siteAdmin.site()];
    const slow = await receiver(() => 'hang');
    const fast = await receiver(() => 200);
    await slowSite.hooks([{ id: 'crm', url: `${slow.url}/hook`, events: ['check.spam'] }]);
    await fastSite.hooks([{ id: 'crm', url: `${fast.url}/hook`, events: ['check.spam'] }]);
    return { slowSite, fastSite, slow };
  };
  const delivered =
    (site: { deliveries: (id: string) => Promise<any[]> }, count = 1) =>
    async () => {
      const log = await site.deliveries('crm');
      return log.length === count && log.every((entry) => entry.status === 'delivered');
    };

  it('when the receiver answers 500 twice then 200, it gets three signed attempts of one delivery with one webhook-id', async () => {
    const site = await admin.site();
    const hook = await receiver((_request, index) => (index < 2 ? 500 : 200));
    const put = await site.hooks([{ id: 'crm', url: `${hook.url}/hook`, events: ['check.spam'] }]);
    expect(put.status).toBe(200);
    const secret = put.body.webhooks[0].secret as string;

    expect((await site.check('ham')).status).toBe(200);
    expect((await site.check('suspicious')).status).toBe(200);
    const checked = await site.check('spam');
    expect(checked.status).toBe(200);
    await waitFor('the delivery', delivered(site));

    expect(hook.requests).toHaveLength(3);
    expect(new Set(hook.requests.map((request) => request.headers['webhook-id'])).size).toBe(1);
    const bodies = hook.requests.map((request) => verified(request, secret));
    expect(new Set(bodies.map((body) => JSON.stringify(body))).size).toBe(1);
    expect(bodies[0]).toMatchObject({
      type: 'check.spam',
      data: { id: checked.body.id, kind: 'text', verdict: 'spam', score: checked.body.score, report: null },
    });
    const [entry] = await site.deliveries('crm');
    expect(entry).toMatchObject({
      id: hook.requests[0]?.headers['webhook-id'],
      event: 'check.spam',
      status: 'delivered',
      attempts: 3,
      last_response_status: 200,
    });
  });

  it('when the receiver is down for a while, the delivery arrives once it is back', async () => {
    const site = await admin.site();
    const later = await laterReceiver();
    stoppers.push(later.stop);
    expect((await site.hooks([{ id: 'crm', url: later.url, events: ['check.spam'] }])).status).toBe(200);
    expect((await site.check('spam')).status).toBe(200);
    await waitFor('two failed attempts', async () => ((await site.deliveries('crm'))[0]?.attempts ?? 0) >= 2);
    expect((await site.deliveries('crm'))[0]).toMatchObject({
      status: 'retrying',
      last_response_status: null,
    });

    const received: string[] = [];
    await later.listen((req, res) => {
      received.push(String(req.headers['webhook-id']));
      res.end();
    });
    await waitFor('the delivery', delivered(site));
    expect(received).toHaveLength(1);
  });

  it('when the path to RabbitMQ is cut with deliveries waiting, every one arrives after it is back', async () => {
    const site = await admin.site();
    let open = false;
    const hook = await receiver(() => (open ? 200 : 503));
    expect((await site.hooks([{ id: 'crm', url: `${hook.url}/hook`, events: ['check.spam'] }])).status).toBe(
      200,
    );
    for (let index = 0; index < 5; index += 1) expect((await site.check('spam')).status).toBe(200);
    await waitFor('five deliveries retrying', async () => {
      const log = await site.deliveries('crm');
      return log.length === 5 && log.every((entry) => entry.attempts >= 1);
    });

    proxy.refuse(true);
    proxy.drop();
    // Checks go on answering while the broker is away; their deliveries wait to be published.
    for (let index = 0; index < 2; index += 1) expect((await site.check('spam')).status).toBe(200);
    open = true;
    proxy.refuse(false);

    await waitFor('seven deliveries', delivered(site, 7), 30_000);
    const accepted = hook.requests.filter((request) => request.headers['webhook-id'] !== undefined);
    const ids = new Set((await site.deliveries('crm')).map((entry) => entry.id));
    expect(ids.size).toBe(7);
    for (const id of ids) expect(accepted.some((request) => request.headers['webhook-id'] === id)).toBe(true);
  });

  it('when the gateway stops with deliveries waiting in the broker, the next gateway delivers them', async () => {
    const gateway = await stack.gateway({ ...retry, AMQP_URL: amqpUrl(), WEBHOOK_QUEUE: queues.handover });
    const site = await (await stack.admin(gateway.url)).site();
    let open = false;
    const accepted: unknown[] = [];
    const hook = await receiver((request) => {
      if (open) accepted.push(request.headers['webhook-id']);
      return open ? 200 : 503;
    });
    await site.hooks([{ id: 'crm', url: `${hook.url}/hook`, events: ['check.spam'] }]);
    for (let index = 0; index < 3; index += 1) expect((await site.check('spam')).status).toBe(200);
    await waitFor('three deliveries retrying', async () => {
      const log = await site.deliveries('crm');
      return log.length === 3 && log.every((entry) => entry.attempts >= 1);
    });
    await gateway.stop();
    open = true;

    const next = await stack.gateway({ ...retry, AMQP_URL: amqpUrl(), WEBHOOK_QUEUE: queues.handover });
    const nextAdmin = await stack.admin(next.url);
    const log = {
      deliveries: async () =>
        (await nextAdmin.call('GET', `/clients/${site.id}/webhooks/crm/deliveries`)).body.deliveries as any[],
    };
    await waitFor('three deliveries', delivered(log, 3));
    const ids = (await log.deliveries()).map((entry) => entry.id);
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) expect(accepted).toContain(id);
  });

  it('when the receiver answers with a redirect, it is not followed and the attempt counts as failed', async () => {
    const site = await admin.site();
    const elsewhere = await receiver(() => 200);
    const redirector = await startScriptedServer((_request, res) => {
      res.writeHead(307, { location: `${elsewhere.url}/hook` });
      res.end();
    });
    stoppers.push(redirector.stop);
    expect(
      (await site.hooks([{ id: 'crm', url: `${redirector.url}/hook`, events: ['check.spam'] }])).status,
    ).toBe(200);
    expect((await site.check('spam')).status).toBe(200);
    await waitFor('two attempts', async () => ((await site.deliveries('crm'))[0]?.attempts ?? 0) >= 2);
    expect((await site.deliveries('crm'))[0]).toMatchObject({
      status: 'retrying',
      last_response_status: 307,
    });
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('when one client’s receiver hangs, another client’s delivery and checks go through meanwhile', async () => {
    const { slowSite, fastSite, slow } = await slowAndFastSites(admin);
    for (let index = 0; index < 8; index += 1) expect((await slowSite.check('spam')).status).toBe(200);
    await waitFor('the slow receiver holding two requests', () => slow.held.length === 2);

    expect((await fastSite.check('spam')).status).toBe(200);
    await waitFor('the other client’s delivery', delivered(fastSite));
    // Still held: the slow client had its two attempts in flight all along, and no more.
    expect(slow.held).toHaveLength(2);
    expect(slow.requests).toHaveLength(2);
    slow.release();
  });

  it('when a client has its share of attempts in flight, its next deliveries wait for them, not for a retry', async () => {
    const gateway = await brokerGateway(turns.work, {
      ...slowRetry,
      WEBHOOK_CLIENT_CONCURRENCY: '1',
    });
    const site = await (await stack.admin(gateway.url)).site();
    // Answers a little late, so that the deliveries of checks made together meet in the gateway.
    const hook = await receiver(() => 'hang');
    const answering = setInterval(() => hook.release(), 100);
    try {
      await site.hooks([{ id: 'crm', url: `${hook.url}/hook`, events: ['check.spam'] }]);
      const checks = await Promise.all([1, 2, 3, 4].map(() => site.check('spam')));
      expect(checks.map((check) => check.status)).toEqual([200, 200, 200, 200]);

      await waitFor('four deliveries', delivered(site, 4));
    } finally {
      clearInterval(answering);
    }
    expect((await site.deliveries('crm')).map((entry) => entry.attempts)).toEqual([1, 1, 1, 1]);
    expect(hook.requests).toHaveLength(4);
    const connection = await connect(amqpUrl());
    const channel = await connection.createChannel();
    const retrying = await channel.checkQueue(turns.delay(600_000));
    await connection.close();
    expect(retrying.messageCount).toBe(0);
  });

  it('when one client’s receiver hangs with the worker’s slots full of its deliveries, they make way for another client’s', async () => {
    const gateway = await brokerGateway(queues.slots, {
      WEBHOOK_CONCURRENCY: '3',
      WEBHOOK_CLIENT_CONCURRENCY: '1',
    });
    const { slowSite, fastSite, slow } = await slowAndFastSites(await stack.admin(gateway.url));
    for (let index = 0; index < 5; index += 1) expect((await slowSite.check('spam')).status).toBe(200);
    await waitFor('the slow receiver holding a request', () => slow.held.length === 1);

    expect((await fastSite.check('spam')).status).toBe(200);
    await waitFor('the other client’s delivery', delivered(fastSite));
    expect(slow.requests).toHaveLength(1);
    slow.release();
  });

  it('when the retry window ends, the delivery is given up, shown as failed and dead-lettered', async () => {
    // A window of 7.2 s: room for retries 50 to 400 ms apart even when the first attempt ends late (at a load
    // of 10 it ended over 0.67 s after the check, and a window of 0.72 s then left no room for a retry).
    const gateway = await brokerGateway(queues.short, {
      WEBHOOK_RETRY_HOURS: '0.002',
    });
    const site = await (await stack.admin(gateway.url)).site();
    const hook = await receiver(() => 500);
    await site.hooks([{ id: 'crm', url: `${hook.url}/hook`, events: ['check.spam'] }]);
    expect((await site.check('spam')).status).toBe(200);
    await waitFor('given up', async () => (await site.deliveries('crm'))[0]?.status === 'failed');
    const [entry] = await site.deliveries('crm');
    expect(entry).toMatchObject({ status: 'failed', last_response_status: 500 });
    expect(entry.attempts).toBeGreaterThan(1);
    expect(hook.requests).toHaveLength(entry.attempts);

    const connection = await connect(amqpUrl());
    const channel = await connection.createChannel();
    const dead = await channel.get(`${queues.short}.dead`, { noAck: true });
    await connection.close();
    expect(dead && JSON.parse(dead.content.toString()).delivery_id).toBe(entry.id);
  });
});
