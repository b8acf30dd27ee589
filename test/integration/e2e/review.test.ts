import { randomBytes } from 'node:crypto';
import {
  checkListSchema,
  feedbackReportsResultSchema,
  hybridResultSchema,
  mailResultSchema,
  textResultSchema,
  type ReviewItem,
} from '@spam-check/contracts';
import { keysUnder, wholeList } from '@spam-check/test-support';
import { CAMPAIGN, VARIANT } from './campaign-texts';
import { request } from './client';
import { runStackForSuite } from './run-stack';

// The review list (docs/review.md) through the gateway with the real services, Redis and RabbitMQ: what is
// listed and to whom, its filters and cursor, corrections in bulk, content kept encrypted, and erasure.

describe('the review list, end to end', () => {
  const suite = runStackForSuite('review', ['first', 'second', 'keeper'], (prefix) => ({
    REVIEW_CONTENT_KEY: randomBytes(32).toString('hex'),
    TEXT_LLM_CACHE_PREFIX: `${prefix}text-llm:`,
  }));
  const { run, prefix, state, post, adminCall, tokenOf } = suite;
  const { first, second, keeper } = suite.accounts;
  const list = (who: typeof first, query = '') =>
    request(`${state.stack.gateway}/api/v1/checks${query}`, {
      headers: { authorization: `Bearer ${tokenOf(who)}` },
    });
  /** Every item of a client's list (the writes happen once the check has answered: waits for `count`). */
  async function everything(who: typeof first, count: number, query = ''): Promise<ReviewItem[]> {
    const separator = query === '' ? '?' : '&';
    return wholeList(async (cursor) => {
      const page = await list(
        who,
        `${query}${cursor === null ? '' : `${separator}cursor=${encodeURIComponent(cursor)}`}`,
      );
      expect(page.status).toBe(200);
      return checkListSchema.parse(page.body);
    }, count);
  }

  it('when a client checks mail, text, hybrid in both modes and batches, its list shows each once, newest first, and another client none of them', async () => {
    const mail = mailResultSchema.parse(
      (await post(first, '/api/v1/spam/mail', { email: 'spam@spam-check.test' })).body,
    );
    const text = textResultSchema.parse((await post(first, '/api/v1/spam/text', CAMPAIGN)).body);
    const hybrids = [];
    for (const mode of ['yes', 'no'])
      hybrids.push(
        hybridResultSchema.parse(
          (
            await post(
              first,
              '/api/v1/spam/hybrid-check',
              { email: `hybrid-${run}@example.org`, ...VARIANT },
              { 'X-Internal-Step-By-Step': mode },
            )
          ).body,
        ),
      );
    const mails = await post(first, '/api/v1/spam/mail/batch', {
      emails: ['ham@spam-check.test', 'not an address', { email: 'suspicious@spam-check.test' }],
    });
    const texts = await post(first, '/api/v1/spam/text/batch', { items: [CAMPAIGN, { title: 1 }] });
    expect([mails.status, texts.status]).toEqual([200, 200]);
    const batchIds = [...mails.body.results, ...texts.body.results]
      .filter((result: { id?: string }) => result.id !== undefined)
      .map((result: { id: string }) => result.id);
    expect(batchIds).toHaveLength(4);
    expect((await post(second, '/api/v1/spam/mail', { email: 'ham@spam-check.test' })).status).toBe(200);

    const ids = [mail.id, text.id, ...hybrids.map((hybrid) => hybrid.id), ...batchIds];
    const items = await everything(first, ids.length, '?limit=3');
    expect(items.map((item) => item.id).sort()).toEqual([...ids].sort());
    const times = items.map((item) => Date.parse(item.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const byId = new Map(items.map((item) => [item.id, item]));
    expect(byId.get(mail.id)).toMatchObject({
      kind: 'mail',
      verdict: 'spam',
      reasons: ['EMAIL_TEST_FIXTURE'],
      report: null,
      content: null,
      // The client keeps no content: not even the domain.
      preview: null,
    });
    expect(byId.get(text.id)).toMatchObject({ kind: 'text', verdict: text.verdict, content: null });
    expect(byId.get(text.id)!.preview!.body).toContain('emailtok');
    expect(byId.get(text.id)!.preview!.body).not.toMatch(/jobs@|450/);
    expect(byId.get(hybrids[0]!.id)).toMatchObject({ kind: 'hybrid', verdict: hybrids[0]!.verdict });

    const others = await everything(second, 1);
    expect(others.map((item) => item.id)).not.toEqual(expect.arrayContaining([mail.id]));
    expect(others).toHaveLength(1);
  });

  it('when the list is filtered, only the checks that match every filter are listed', async () => {
    const spam = await everything(first, 1, '?verdict=spam&kind=mail');
    expect(spam.length).toBeGreaterThan(0);
    expect(spam.every((item) => item.verdict === 'spam' && item.kind === 'mail')).toBe(true);
    const either = await everything(first, 1, '?verdict=spam&verdict=suspicious');
    expect(new Set(either.map((item) => item.verdict))).toEqual(new Set(['spam', 'suspicious']));
    const fixtures = await everything(first, 1, '?reason=EMAIL_TEST_FIXTURE');
    expect(fixtures.every((item) => item.reasons.includes('EMAIL_TEST_FIXTURE'))).toBe(true);
    expect(fixtures.length).toBe(3);
    const future = new Date(Date.now() + 3600_000).toISOString();
    expect(
      checkListSchema.parse((await list(first, `?since=${encodeURIComponent(future)}`)).body).items,
    ).toEqual([]);
    const past = '2000-01-01T00:00:00Z';
    expect(checkListSchema.parse((await list(first, `?until=${past}`)).body).items).toEqual([]);
  });

  it('when the query or the cursor is bad, the answer is 400 VALIDATION_FAILED naming the parameter', async () => {
    for (const query of [
      '?limit=0',
      '?limit=101',
      '?verdict=maybe',
      '?kind=mail&kind=text',
      '?reported=yes',
      '?since=yesterday',
      '?reason=NOT_A_REASON',
      '?verdicts=spam',
      '?cursor=abc.def',
    ]) {
      const answer = await list(first, query);
      expect([query, answer.status, answer.body.code]).toEqual([query, 400, 'VALIDATION_FAILED']);
    }
    const page = checkListSchema.parse((await list(first, '?limit=1')).body);
    const cursor = encodeURIComponent(page.next_cursor!);
    expect((await list(first, `?limit=1&cursor=${cursor}`)).status).toBe(200);
    const refused = await list(first, `?limit=1&kind=text&cursor=${cursor}`);
    expect([refused.status, refused.body.errors[0].path]).toEqual([400, 'cursor']);
    expect((await list(second, `?limit=1&cursor=${cursor}`)).status).toBe(400);
    const [body, signature] = page.next_cursor!.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), c: second.client }),
    ).toString('base64url');
    expect((await list(second, `?cursor=${forged}.${signature}`)).status).toBe(400);
    const unauthenticated = await request(`${state.stack.gateway}/api/v1/checks`);
    expect(unauthenticated.status).toBe(401);
    const posted = await post(first, '/api/v1/checks', {});
    expect([posted.status, posted.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
  });

  it('when reports come in bulk, each is applied or refused with its own problem, the items show them, and a near-duplicate is judged by them', async () => {
    const checked = textResultSchema.parse((await post(first, '/api/v1/spam/text', CAMPAIGN)).body);
    const mail = mailResultSchema.parse(
      (await post(first, '/api/v1/spam/mail', { email: `bulk-${run}@example.org` })).body,
    );
    const othersCheck = mailResultSchema.parse(
      (await post(second, '/api/v1/spam/mail', { email: `other-${run}@example.org` })).body,
    );
    await everything(first, 1, `?kind=text&limit=1`);
    const answer = await post(first, '/api/v1/spam/feedback', {
      reports: [
        { check_id: checked.id, label: 'spam' },
        { check_id: othersCheck.id, label: 'spam' },
        { check_id: mail.id, label: 'maybe' },
        { check_id: mail.id, label: 'ham' },
      ],
    });
    expect(answer.status).toBe(200);
    const { results } = feedbackReportsResultSchema.parse(answer.body);
    expect(results[0]).toMatchObject({ check_id: checked.id, label: 'spam', applied_to: ['text'] });
    expect(results[1]).toMatchObject({ error: { status: 404, code: 'CHECK_NOT_FOUND' } });
    expect(results[2]).toMatchObject({ error: { status: 400, code: 'VALIDATION_FAILED' } });
    expect((results[2] as { error: { errors: { path: string }[] } }).error.errors[0]!.path).toBe(
      'reports.2.label',
    );
    expect(results[3]).toMatchObject({ check_id: mail.id, label: 'ham', applied_to: ['email'] });

    const variant = textResultSchema.parse((await post(first, '/api/v1/spam/text', VARIANT)).body);
    expect(variant.reasons.map((reason) => reason.code)).toContain('TEXT_REPORTED_SPAM');

    const reported = await everything(first, 2, '?reported=true');
    expect(reported.find((item) => item.id === checked.id)?.report).toMatchObject({ label: 'spam' });
    expect(reported.find((item) => item.id === mail.id)?.report).toMatchObject({ label: 'ham' });
    const unreported = await everything(first, 1, '?reported=false');
    expect(unreported.some((item) => item.id === checked.id)).toBe(false);
    expect((await everything(second, 1)).find((item) => item.id === othersCheck.id)?.report).toBeNull();

    const single = await post(first, '/api/v1/spam/feedback', { check_id: checked.id, label: 'ham' });
    expect(single.status).toBe(200);
    const tooMany = await post(first, '/api/v1/spam/feedback', {
      reports: Array.from({ length: 101 }, () => ({ check_id: checked.id, label: 'spam' })),
    });
    expect([tooMany.status, tooMany.body.code]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it('when a client keeps content, its items show the submitted fields, Redis holds none of them in clear, and erasure removes them', async () => {
    const put = await adminCall('PUT', `/api/v1/admin/clients/${keeper.client}/settings`, {
      review: { keep_content_days: 2 },
    });
    expect(put.status).toBe(200);
    const address = `Kept.Person-${run}+news@Private-${run}.example`;
    const text = {
      title: `Secret title ${run}`,
      body: `Secret body ${run}, call me`,
      sub_title: `Sub ${run}`,
    };
    // Settings hold within a second on every process: check until the content is kept.
    let items: ReviewItem[] = [];
    for (let attempt = 0; attempt < 100; attempt += 1) {
      await post(keeper, '/api/v1/spam/hybrid-check', { email: address, ...text });
      items = await everything(keeper, attempt + 1);
      if (items.some((item) => item.content !== null)) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const kept = items.find((item) => item.content !== null)!;
    expect(kept.content).toEqual({ email: address, ...text });
    expect(kept.preview).toMatchObject({ domain: `private-${run}.example` });

    const stored: string[] = [];
    for (const key of await keysUnder(state.redis, `${prefix}gateway:review:`)) {
      const type = await state.redis.type(key);
      if (type === 'string') stored.push((await state.redis.get(key)) ?? '');
      if (type === 'hash') stored.push(...Object.values(await state.redis.hgetall(key)));
      if (key.includes(':content:')) {
        const ttl = await state.redis.ttl(key);
        expect(ttl).toBeGreaterThan(0);
        expect(ttl).toBeLessThanOrEqual(2 * 24 * 3600);
      }
    }
    const everythingStored = stored.join('\n').toLowerCase();
    expect(everythingStored.length).toBeGreaterThan(0);
    for (const secret of [address.toLowerCase(), `secret title ${run}`, `secret body ${run}`, `sub ${run}`])
      expect(everythingStored).not.toContain(secret.toLowerCase());

    // Another spelling of the same mailbox: case and +tag aside.
    const erased = await adminCall('POST', '/api/v1/admin/erasure', {
      email: `kept.person-${run}@private-${run}.example`,
    });
    expect(erased.status).toBe(200);
    expect(erased.body.erased.review_checks).toBe(items.filter((item) => item.kind === 'hybrid').length);
    expect(checkListSchema.parse((await list(keeper)).body).items).toEqual([]);
    expect((await keysUnder(state.redis, `${prefix}gateway:review:{${keeper.client}}:content:`)).length).toBe(
      0,
    );
  });

  it('when a client is erased, its list and every key of it are gone', async () => {
    expect((await everything(second, 1)).length).toBeGreaterThan(0);
    const erased = await adminCall('POST', '/api/v1/admin/erasure', { client_id: second.client });
    expect(erased.status).toBe(200);
    expect(erased.body.erased.review_checks).toBeGreaterThan(0);
    expect(checkListSchema.parse((await list(second)).body).items).toEqual([]);
    expect(await keysUnder(state.redis, `${prefix}gateway:review:{${second.client}}`)).toEqual([]);
  });
});
