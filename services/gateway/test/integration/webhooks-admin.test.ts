import { keysUnder } from '@spam-check/test-support';
import { startReceiver, startWebhookStack, verified, waitFor } from './support/webhooks';

// Webhooks managed through the admin API, delivered by the in-memory queue (no AMQP_URL): one gateway that
// lets loopback targets through (WEBHOOK_ALLOW_PRIVATE), and one that does not.
describe('webhooks through the admin API, in embedded mode', () => {
  let stack: Awaited<ReturnType<typeof startWebhookStack>>;
  let open: Awaited<ReturnType<typeof stack.admin>>;
  let strict: Awaited<ReturnType<typeof stack.admin>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    stack = await startWebhookStack();
    const retry = { WEBHOOK_RETRY_BASE_MS: '50', WEBHOOK_RETRY_MAX_DELAY_MS: '400' };
    open = await stack.admin((await stack.gateway({ ...retry, WEBHOOK_ALLOW_PRIVATE: 'true' })).url);
    strict = await stack.admin((await stack.gateway(retry)).url);
    receiver = await startReceiver(() => 200);
  });

  afterAll(async () => {
    await receiver.stop();
    await stack.stop();
  });

  const hookAt = (id: string, events = ['check.spam', 'check.suspicious', 'feedback.received']) => ({
    id,
    url: `${receiver.url}/${id}`,
    events,
  });
  const requestsTo = (id: string) => receiver.requests.filter((request) => request.url === `/${id}`);

  it('when a PUT adds a webhook, it answers its secret once; later reads, PUTs and Redis never show it', async () => {
    const site = await open.site();
    const first = await site.hooks([hookAt('a')]);
    expect(first.status).toBe(200);
    const secret = first.body.webhooks[0].secret as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(first.body.webhooks[0]).toMatchObject({ id: 'a', enabled: true });

    const again = await site.hooks([hookAt('a'), hookAt('b')]);
    expect(again.body.webhooks[0].secret).toBeUndefined();
    expect(again.body.webhooks[1].secret).toMatch(/^whsec_/);
    const read = await open.call('GET', `/clients/${site.id}/settings`);
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.body)).not.toContain('whsec_');

    // What a dump of Redis holds: the secret's key bytes appear nowhere, in base64 or raw.
    const keys = await keysUnder(stack.redis, stack.prefix);
    expect(keys.some((key) => key.includes(`webhook-secrets:${site.id}`))).toBe(true);
    const dumps = await Promise.all(keys.map((key) => stack.redis.dumpBuffer(key)));
    const raw = Buffer.from(secret.slice(6), 'base64');
    for (const dump of dumps) {
      expect(dump?.includes(secret.slice(6))).toBe(false);
      expect(dump?.includes(raw)).toBe(false);
    }
  });

  it('when a check is spam or suspicious, or a report on a listed check is accepted, the subscribed events are delivered with its review item', async () => {
    const site = await open.site();
    const secret = (await site.hooks([hookAt('events')])).body.webhooks[0].secret as string;
    expect((await site.check('ham')).status).toBe(200);
    const suspicious = await site.check('suspicious');
    expect((await site.report('spam', suspicious.body.id)).status).toBe(200);
    await waitFor('two deliveries', () => requestsTo('events').length === 2);
    const bodies = requestsTo('events').map((request) => verified(request, secret));
    expect(bodies.map((body) => body.type).sort()).toEqual(['check.suspicious', 'feedback.received']);
    expect(bodies.find((body) => body.type === 'check.suspicious')?.data).toMatchObject({
      id: suspicious.body.id,
      verdict: 'suspicious',
      language: 'en',
    });
    expect(bodies.find((body) => body.type === 'feedback.received')?.data).toMatchObject({
      id: suspicious.body.id,
      kind: 'text',
      verdict: 'suspicious',
      report: { label: 'spam' },
      content: null,
    });
  });

  it('when the secret is rotated, deliveries carry two signatures, one by each secret', async () => {
    const site = await open.site();
    const old = (await site.hooks([hookAt('rotated', ['check.spam'])])).body.webhooks[0].secret as string;
    const rotated = await open.call('POST', `/clients/${site.id}/webhooks/rotated/secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(old);
    expect(Date.parse(rotated.body.previous_valid_until) - Date.now()).toBeGreaterThan(23 * 3600_000);

    expect((await site.check('spam')).status).toBe(200);
    await waitFor('the delivery', () => requestsTo('rotated').length === 1);
    const [request] = requestsTo('rotated');
    expect(String(request?.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verified(request!, old).type).toBe('check.spam');
    expect(verified(request!, rotated.body.secret).type).toBe('check.spam');
  });

  it('when "send test event" is asked, the webhook gets a webhook.test delivery with the answered id', async () => {
    const site = await open.site();
    const secret = (await site.hooks([hookAt('tested', ['feedback.received'])])).body.webhooks[0].secret;
    const sent = await open.call('POST', `/clients/${site.id}/webhooks/tested/test`);
    expect(sent.status).toBe(202);
    await waitFor('the test delivery', () => requestsTo('tested').length === 1);
    const [request] = requestsTo('tested');
    expect(request?.headers['webhook-id']).toBe(sent.body.delivery_id);
    expect(verified(request!, secret).type).toBe('webhook.test');
    await waitFor('the log', async () => (await site.deliveries('tested'))[0]?.status === 'delivered');
  });

  it('when the webhooks are invalid, the PUT is 400 naming the field and nothing changes', async () => {
    const site = await open.site();
    await site.hooks([hookAt('kept')]);
    const six = Array.from({ length: 6 }, (_, index) => hookAt(`h${index}`));
    for (const [webhooks, path] of [
      [six, 'webhooks'],
      [[hookAt('same'), hookAt('same')], 'webhooks'],
      [[{ ...hookAt('x'), events: ['check.ham'] }], 'webhooks.0.events.0'],
      [[{ ...hookAt('x'), url: 'ftp://example.com/hook' }], 'webhooks.0.url'],
      [[{ ...hookAt('x'), secret: 'whsec_mine' }], 'webhooks.0'],
    ] as const) {
      const refused = await site.hooks([...webhooks]);
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe('VALIDATION_FAILED');
      const errors = refused.body.errors as { path: string }[];
      expect(errors.map((error) => error.path)).toContain(path);
    }
    const read = await open.call('GET', `/clients/${site.id}/settings`);
    expect((read.body.webhooks as { id: string }[]).map((hook) => hook.id)).toEqual(['kept']);
    for (const action of ['secret', 'test'])
      expect((await open.call('POST', `/clients/${site.id}/webhooks/unknown/${action}`)).status).toBe(404);
    expect((await open.call('GET', `/clients/${site.id}/webhooks/unknown/deliveries`)).status).toBe(404);
  });

  it('when private targets are not allowed, a loopback address is refused at PUT and a loopback name at connect', async () => {
    const site = await strict.site();
    const literal = await site.hooks([hookAt('literal')]);
    expect(literal.status).toBe(400);
    expect(literal.body.errors[0].path).toBe('webhooks.0.url');

    const byName = {
      id: 'named',
      url: `${receiver.url.replace('127.0.0.1', 'localhost')}/named`,
      events: ['check.spam'],
    };
    expect((await site.hooks([byName])).status).toBe(200);
    expect((await site.check('spam')).status).toBe(200);
    await waitFor('the refusal', async () => (await site.deliveries('named'))[0]?.status === 'failed');
    expect((await site.deliveries('named'))[0]).toMatchObject({ attempts: 1, last_response_status: null });
    expect((await site.deliveries('named'))[0].last_error).toMatch(/not allowed/);
    expect(requestsTo('named')).toHaveLength(0);
  });
});
