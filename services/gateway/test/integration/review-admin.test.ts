import { checkListSchema, feedbackReportsResultSchema, type ReviewItem } from '@spam-check/contracts';
import { startReceiver, startWebhookStack, verified, waitFor } from './support/webhooks';

// The operator console's way to a client's review (docs/review.md, "From the console"): the admin API lists a
// client's checks as the client lists them, and reports as the client. Real auth, real Redis; the detectors
// are loopback servers whose text verdict is the title (support/webhooks.ts).
describe("a client's review through the admin API", () => {
  let stack: Awaited<ReturnType<typeof startWebhookStack>>;
  let admin: Awaited<ReturnType<typeof stack.admin>>;
  let base: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    stack = await startWebhookStack();
    base = (await stack.gateway({ WEBHOOK_ALLOW_PRIVATE: 'true' })).url;
    admin = await stack.admin(base);
    receiver = await startReceiver(() => 200);
  });

  afterAll(async () => {
    await receiver?.stop();
    await stack?.stop();
  });

  /** The client's list as the admin API answers it, once it holds `count` checks (kept once answered). */
  const adminList = async (id: string, query: string, count: number) => {
    for (let attempt = 0; ; attempt += 1) {
      const answer = await admin.call('GET', `/clients/${id}/checks${query}`);
      expect(answer.status).toBe(200);
      const page = checkListSchema.parse(answer.body);
      if (page.items.length >= count || attempt === 100) return page;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  it('when an administrator lists a client, it gets the client’s own list with its filters and cursor, and no other client’s checks', async () => {
    const site = await admin.site();
    const other = await admin.site();
    const ids: string[] = [];
    for (const title of ['spam', 'ham', 'spam', 'suspicious'])
      ids.push(((await site.check(title)).body as { id: string }).id);
    expect((await other.check('spam')).status).toBe(200);

    const all = await adminList(site.id, '', 4);
    expect(all.items.map((item) => item.id)).toEqual([...ids].reverse());
    expect(all.items.map((item) => item.verdict)).toEqual(['suspicious', 'spam', 'ham', 'spam']);

    const first = await adminList(site.id, '?verdict=spam&limit=1', 1);
    expect(first.items.map((item) => item.id)).toEqual([ids[2]]);
    expect(first.next_cursor).not.toBeNull();
    const second = await adminList(
      site.id,
      `?verdict=spam&limit=1&cursor=${encodeURIComponent(first.next_cursor ?? '')}`,
      1,
    );
    expect(second.items.map((item) => item.id)).toEqual([ids[0]]);

    // The cursor is the client's: another client's list refuses it.
    const foreign = await admin.call(
      'GET',
      `/clients/${other.id}/checks?verdict=spam&limit=1&cursor=${encodeURIComponent(first.next_cursor ?? '')}`,
    );
    expect(foreign.status).toBe(400);
    expect(foreign.body.code).toBe('VALIDATION_FAILED');
    const otherItems = (await adminList(other.id, '', 1)).items;
    expect(otherItems.map((item) => item.id).filter((id) => ids.includes(id))).toEqual([]);
  });

  it('when an administrator lists and reports under /deapi and /frapi, the same routes answer, problems in that language', async () => {
    const site = await admin.site();
    const checkId = ((await site.check('spam')).body as { id: string }).id;
    const items = (await adminList(site.id, '', 1)).items;
    for (const api of ['/deapi', '/frapi']) {
      const listed = await admin.call('GET', `/clients/${site.id}/checks`, undefined, api);
      expect(listed.status).toBe(200);
      expect(checkListSchema.parse(listed.body).items).toEqual(items);
    }
    const french = await admin.call('GET', `/clients/${site.id}/checks?limit=0`, undefined, '/frapi');
    expect(french.status).toBe(400);
    expect(french.body).toMatchObject({ code: 'VALIDATION_FAILED', title: 'Échec de la validation' });

    const reported = await admin.call(
      'POST',
      `/clients/${site.id}/feedback`,
      { check_id: checkId, label: 'ham' },
      '/deapi',
    );
    expect(reported.status).toBe(200);
    expect(reported.body).toMatchObject({ check_id: checkId, label: 'ham' });
    const after = await adminList(site.id, '?reported=true', 1);
    expect(after.items.map((item) => [item.id, item.report?.label])).toEqual([[checkId, 'ham']]);
  });

  it('when the query is bad, the client unknown or the token not an administrator’s, it is refused', async () => {
    const site = await admin.site();
    const bad = await admin.call('GET', `/clients/${site.id}/checks?verdict=maybe`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toBe('verdict');
    const unknown = await admin.call('GET', '/clients/no-such-client/checks');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('CLIENT_NOT_FOUND');
    const put = await admin.call('PUT', `/clients/${site.id}/checks`, {});
    expect(put.status).toBe(405);
    const reportUnknown = await admin.call('POST', '/clients/no-such-client/feedback', {
      reports: [{ check_id: 'x', label: 'spam' }],
    });
    expect(reportUnknown.status).toBe(404);

    // The site's own token has spam:check, not spam:admin.
    const checkId = ((await site.check('spam')).body as { id: string }).id;
    const asSite = await site.report('ham', checkId);
    expect(asSite.status).toBe(200);
    const answer = await fetch(`${base}/api/v1/admin/clients/${site.id}/checks`, {
      headers: { authorization: `Bearer ${site.checkToken}` },
    });
    expect(answer.status).toBe(403);
    expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it('when an administrator reports for a client, one or many, the report is the client’s: listed, counted and sent to its webhook', async () => {
    const site = await admin.site();
    const secret = (
      await site.hooks([{ id: 'told', url: `${receiver.url}/told`, events: ['feedback.received'] }])
    ).body.webhooks[0].secret as string;
    const ids: string[] = [];
    for (const title of ['spam', 'spam', 'ham'])
      ids.push(((await site.check(title)).body as { id: string }).id);
    await adminList(site.id, '', 3);

    const one = await admin.call('POST', `/clients/${site.id}/feedback`, { check_id: ids[2], label: 'spam' });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ check_id: ids[2], label: 'spam' });
    const many = await admin.call('POST', `/clients/${site.id}/feedback`, {
      reports: [
        { check_id: ids[0], label: 'ham' },
        { check_id: ids[1], label: 'ham' },
        { check_id: ids[1], label: 'nonsense' },
      ],
    });
    expect(many.status).toBe(200);
    const results = feedbackReportsResultSchema.parse(many.body).results;
    expect(results.slice(0, 2)).toMatchObject([
      { check_id: ids[0], label: 'ham' },
      { check_id: ids[1], label: 'ham' },
    ]);
    expect(results[2]).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });

    // The client's own list shows the reports, as its own would.
    let reported: ReviewItem[] = [];
    await waitFor('three reports listed', async () => {
      reported = (await adminList(site.id, '?reported=true', 0)).items;
      return reported.length === 3;
    });
    expect(Object.fromEntries(reported.map((item) => [item.id, item.report?.label]))).toEqual({
      [ids[0]!]: 'ham',
      [ids[1]!]: 'ham',
      [ids[2]!]: 'spam',
    });
    const recent = await admin.call('GET', `/clients/${site.id}/feedback`);
    const feedback = (recent.body as { feedback: { check_id: string }[] }).feedback;
    expect(feedback.map((entry) => entry.check_id).sort()).toEqual([...ids].sort());
    const requests = () => receiver.requests.filter((request) => request.url === '/told');
    await waitFor('three feedback.received deliveries', () => requests().length === 3);
    const told = requests().map((request) => verified(request, secret));
    expect(told.map((body) => body.type)).toEqual(Array(3).fill('feedback.received'));
    expect(told.map((body) => (body.data as { id: string }).id).sort()).toEqual([...ids].sort());
  });
});
