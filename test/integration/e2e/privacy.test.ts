import { createHmac, randomUUID } from 'node:crypto';
import {
  clientStatsSchema,
  erasureResultSchema,
  hybridResultSchema,
  mailResultSchema,
} from '@spam-check/contracts';
import { keysUnder } from '@spam-check/test-support';
import type { Redis } from 'ioredis';
import { obtainToken, postJson, within } from './client';
import { runSettingsKeys, stringsOf } from './redis-keys';
import { runStackForSuite } from './run-stack';

/** The gateway keeps an admin action once its answer has gone out (`audited`): allow it this long to land. */
const ADMIN_ACTION_KEPT_MS = 2000;

// Privacy (docs/design.md, Privacy and erasure) through the gateway with the real services, Redis and
// RabbitMQ: what traffic with known addresses leaves in Redis, and the erasure of an address, of a client,
// and of a deleted client.

const codes = (result: { reasons: { code: string }[] }) => result.reasons.map((reason) => reason.code);

/** Every key with every string it holds (members, fields and values), lower-cased. */
async function dumpKeys(redis: Redis, keys: string[]): Promise<Map<string, string[]>> {
  const dump = new Map<string, string[]>();
  for (const key of keys)
    dump.set(
      key.toLowerCase(),
      (await stringsOf(redis, key)).map((value) => value.toLowerCase()),
    );
  return dump;
}

describe('privacy, end to end', () => {
  const hashKey = randomUUID() + randomUUID();
  const suite = runStackForSuite('privacy', ['first', 'second'], (prefix) => ({
    PRIVACY_HASH_KEY: hashKey,
    TEXT_LLM_CACHE_PREFIX: `${prefix}text-llm:`,
  }));
  const { run, prefix, state, post, adminCall } = suite;
  const { first, second, admin } = suite.accounts;
  // Distinctive addresses (the run id in each), as a client sends them, and their mailboxes.
  const anna = {
    sent: `Anna.Schmidt+news-${run}@Mail-${run}.example.de`,
    mailbox: `anna.schmidt@mail-${run}.example.de`,
  };
  const bert = {
    sent: `bert.meyer-${run}@post-${run}.example.fr`,
    mailbox: `bert.meyer-${run}@post-${run}.example.fr`,
  };
  const carla = {
    sent: `carla-${run}@web-${run}.example.org`,
    mailbox: `carla-${run}@web-${run}.example.org`,
  };
  const hashOf = (mailbox: string) => createHmac('sha256', hashKey).update(mailbox).digest('hex');
  /** A client's stats once they show an erasure (an admin action is kept once its answer has gone out). */
  const statsAfterErasure = (client: string) =>
    within(
      ADMIN_ACTION_KEPT_MS,
      () => adminCall('GET', `/api/v1/admin/clients/${client}/stats`),
      (answer) => JSON.stringify(answer.body).includes('data.erase'),
    );
  const mailCodes = async (who: typeof first, email: string) =>
    codes(mailResultSchema.parse((await post(who, '/api/v1/spam/mail', { email })).body));
  /** The keys of this run and the settings of its clients, each with what it holds. */
  const stored = async () =>
    dumpKeys(state.redis, [
      ...(await keysUnder(state.redis, prefix)),
      ...(await runSettingsKeys(state.redis, run)),
    ]);
  /**
   * The keys of this run tied to a client, but for what erasure keeps (docs/privacy.md): its registration and
   * tokens (auth), its aggregate usage counts, its admin actions, and its rate-limit window (gone within it).
   */
  const dataTiedTo = async (client: string) =>
    (await keysUnder(state.redis, prefix)).filter(
      (key) => key.includes(client) && !/:(auth:|gateway:(usage|admin-actions|ratelimit):)/.test(key),
    );
  /** The check records of the e-mail detector that hold `value`. */
  const emailRecordsHolding = async (value: string) => {
    const keys = (await keysUnder(state.redis, `${prefix}email-feedback:`)).filter((key) =>
      /:check:[0-9a-f-]{36}$/.test(key),
    );
    // A record holds the mailbox's hash, then `:` and its domain's when that can be a campaign's.
    const holds = (stored: string | null) => stored === value || stored?.startsWith(`${value}:`) === true;
    return keys.length === 0 ? 0 : (await state.redis.mget(keys)).filter(holds).length;
  };

  /** Mail, batch, hybrid (both modes), text and feedback (by address, check id and text) with the addresses. */
  async function traffic(): Promise<void> {
    const mail = mailResultSchema.parse((await post(first, '/api/v1/spam/mail', { email: anna.sent })).body);
    expect((await post(first, '/api/v1/spam/feedback', { check_id: mail.id, label: 'spam' })).status).toBe(
      200,
    );
    const batch = await post(first, '/api/v1/spam/mail/batch', {
      emails: [anna.sent, bert.sent, carla.sent],
    });
    expect(batch.status).toBe(200);
    const text = {
      title: `Question from ${bert.sent}`,
      body: `Hello, please write to ${carla.sent} or ${anna.sent} about the offer. Regards, ${bert.sent}`,
    };
    for (const mode of ['yes', 'no']) {
      const hybrid = await post(
        first,
        '/api/v1/spam/hybrid-check',
        { email: bert.sent, ...text },
        {
          'X-Internal-Step-By-Step': mode,
        },
      );
      expect(hybrid.status).toBe(200);
      const id = hybridResultSchema.parse(hybrid.body).id;
      expect((await post(first, '/api/v1/spam/feedback', { check_id: id, label: 'ham' })).status).toBe(200);
    }
    expect((await post(first, '/api/v1/spam/text', text)).status).toBe(200);
    expect((await post(first, '/api/v1/spam/feedback', { ...text, label: 'spam' })).status).toBe(200);
    for (const who of [first, second])
      expect((await post(who, '/api/v1/spam/feedback', { email: carla.sent, label: 'spam' })).status).toBe(
        200,
      );
    expect((await post(second, '/api/v1/spam/mail', { email: anna.sent })).status).toBe(200);
    // The gateway writes usage counts within 100 ms.
    await new Promise((resolve) => setTimeout(resolve, 300));
  }

  it('when traffic carries known addresses, no key or value in Redis holds one: only their keyed hashes', async () => {
    await traffic();
    expect(await mailCodes(first, anna.sent.toUpperCase())).toContain('EMAIL_REPORTED_SPAM');
    expect(await mailCodes(second, carla.sent)).toContain('EMAIL_REPORTED_SPAM');

    const dump = await stored();
    expect(dump.size).toBeGreaterThan(10);
    const everything = [...dump].flatMap(([key, values]) => [key, ...values]);
    for (const { sent, mailbox } of [anna, bert, carla]) {
      const local = mailbox.slice(0, mailbox.indexOf('@'));
      const domain = mailbox.slice(mailbox.indexOf('@') + 1);
      for (const needle of [sent.toLowerCase(), mailbox, local, domain])
        expect(everything.filter((value) => value.includes(needle))).toEqual([]);
    }
    // Not vacuous: the records and reports are there, under the keyed hashes.
    expect(everything).toContain(hashOf(anna.mailbox));
    expect(everything).toContain(hashOf(carla.mailbox));
  });

  it('when an address is erased, every client’s records and reports of it go, with counts of what was stored', async () => {
    const hash = hashOf(carla.mailbox);
    const records = await emailRecordsHolding(hash);
    const reportKeys = (await keysUnder(state.redis, `${prefix}email-feedback:reports:`)).filter((key) =>
      key.endsWith(':entries'),
    );
    let reports = 0;
    for (const key of reportKeys) reports += await state.redis.hexists(key, hash);
    expect(records).toBeGreaterThan(0);
    expect(reports).toBe(2);

    // Another spelling of the same mailbox.
    const erased = await adminCall('POST', '/frapi/v1/admin/erasure', { email: carla.sent.toUpperCase() });
    expect(erased.status).toBe(200);
    expect(erasureResultSchema.parse(erased.body)).toEqual({
      erased: expect.objectContaining({ email_check_records: records, email_reports: reports }),
      request_id: erased.headers.get('x-request-id'),
    });
    expect(await mailCodes(first, carla.sent)).not.toContain('EMAIL_REPORTED_SPAM');
    expect(await mailCodes(second, carla.sent)).not.toContain('EMAIL_REPORTED_SPAM');
    // The checks just made keep a record again; nothing else of the address is left.
    expect(await emailRecordsHolding(hash)).toBe(2);
    const left = [...(await stored())].filter(([key, values]) => key.includes(hash) || values.includes(hash));
    expect(left.every(([key]) => /:check:[0-9a-f-]{36}$/.test(key))).toBe(true);

    // The other addresses' reports still apply.
    expect(await mailCodes(first, anna.sent)).toContain('EMAIL_REPORTED_SPAM');

    const stats = await statsAfterErasure(admin.client);
    expect(stats.status).toBe(200);
    const actions = clientStatsSchema.parse(stats.body).recent_admin_actions;
    expect(actions).toContainEqual(
      expect.objectContaining({ action: 'data.erase', client_id: admin.client, status: 200 }),
    );
    expect(JSON.stringify(actions).toLowerCase()).not.toContain(carla.mailbox);
  });

  it('when a client is erased, nothing stored is tied to it but its aggregate counts and admin actions', async () => {
    const client = first.client;
    const count = async (pattern: RegExp) =>
      (await keysUnder(state.redis, prefix)).filter((key) => pattern.test(key)).length;
    const hashLength = async (key: string) => state.redis.hlen(key);
    const expected = {
      email_check_records: await count(new RegExp(`email-feedback:\\{${client}\\}:check:`)),
      email_reports: await hashLength(`${prefix}email-feedback:reports:{${client}}:entries`),
      // Campaigns are off by default (CAMPAIGN_SHARE_DEFAULT): nothing of this client is shared.
      email_campaign_reports: 0,
      text_check_records: await count(new RegExp(`text-feedback:\\{${client}\\}:check:`)),
      text_learnt_state:
        (await hashLength(`${prefix}text-feedback:reports:{${client}}:entries`)) +
        (await hashLength(`${prefix}text-feedback:bands:{${client}}:entries`)) +
        (await hashLength(`${prefix}text-feedback:weights:{${client}}:entries`)),
      text_reported_texts: await hashLength(`${prefix}text-feedback:texts:{${client}}:entries`),
      text_campaign_reports: 0,
      hybrid_check_records: await count(new RegExp(`gateway:hybrid:\\{${client}\\}:check:`)),
      review_checks: await hashLength(`${prefix}gateway:review:{${client}}:items`),
      recent_feedback: await state.redis.llen(`${prefix}gateway:feedback-recent:${client}`),
      client_settings: 0,
      // The client has no webhooks: nothing of them to erase.
      webhook_deliveries: 0,
      webhook_secrets: 0,
    };
    expect(expected.email_check_records).toBeGreaterThan(0);
    expect(expected.text_learnt_state).toBeGreaterThan(0);
    expect(expected.hybrid_check_records).toBe(2);
    expect(expected.review_checks).toBeGreaterThan(0);

    const erased = await adminCall('POST', '/api/v1/admin/erasure', { client_id: client });
    expect(erased.status).toBe(200);
    expect(erased.body.erased).toEqual(expected);

    expect(await dataTiedTo(client)).toEqual([]);
    expect(await mailCodes(first, anna.sent)).not.toContain('EMAIL_REPORTED_SPAM');
    expect(await mailCodes(second, anna.sent)).not.toContain('EMAIL_REPORTED_SPAM');

    const stats = clientStatsSchema.parse((await statsAfterErasure(client)).body);
    expect(stats.recent_admin_actions[0]).toMatchObject({
      action: 'data.erase',
      client_id: client,
      status: 200,
    });
    expect(stats.totals.mail.ham + stats.totals.mail.suspicious + stats.totals.mail.spam).toBeGreaterThan(0);
  });

  it('when a client is deleted through the admin API, its data is erased too', async () => {
    const id = `deleted-${run}`;
    const created = await adminCall('POST', '/api/v1/admin/clients', { id, grants: ['password'] });
    expect(created.status).toBe(201);
    expect(
      (await adminCall('PUT', `/api/v1/admin/clients/${id}/settings`, { mail: { deny: ['x.example'] } }))
        .status,
    ).toBe(200);
    const issued = await obtainToken(state.stack.gateway, '/', {
      client: id,
      secret: created.body.client_secret as string,
      username: second.username,
      password: second.password,
    });
    expect(issued.status).toBe(200);
    const token = issued.body.access_token as string;
    const checked = await postJson(`${state.stack.gateway}/api/v1/spam/mail`, token, { email: bert.sent });
    const reported = await postJson(`${state.stack.gateway}/api/v1/spam/feedback`, token, {
      check_id: checked.body.id,
      label: 'spam',
    });
    expect(reported.status).toBe(200);
    const text = await postJson(`${state.stack.gateway}/api/v1/spam/feedback`, token, {
      title: 'Cheap watches',
      body: 'Buy cheap watches now at a great price, limited offer',
      label: 'spam',
    });
    expect(text.status).toBe(200);
    expect((await keysUnder(state.redis, prefix)).filter((key) => key.includes(id)).length).toBeGreaterThan(
      4,
    );

    const deleted = await adminCall('DELETE', `/api/v1/admin/clients/${id}`);
    expect(deleted.status).toBe(204);
    expect(await dataTiedTo(id)).toEqual([]);
    expect(await state.redis.exists(`spam-check:client-settings:${id}`)).toBe(0);
    const actions = (
      await within(
        ADMIN_ACTION_KEPT_MS,
        () => state.redis.lrange(`${prefix}gateway:admin-actions:${id}`, 0, -1),
        (kept) => kept.some((raw) => raw.includes('data.erase')),
      )
    ).map((raw) => (JSON.parse(raw) as { action: string }).action);
    expect(actions).toEqual(expect.arrayContaining(['client.delete', 'data.erase']));
  });

  it('when the body names neither an address nor a client, it is a 400 and nothing is erased', async () => {
    const kept = async () =>
      (await keysUnder(state.redis, prefix)).filter((key) => key.includes(second.client));
    const before = await kept();
    expect(before.length).toBeGreaterThan(2);
    for (const body of [{}, { client_id: 'bad id!' }, { email: '' }]) {
      const answer = await adminCall('POST', '/api/v1/admin/erasure', body);
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('VALIDATION_FAILED');
    }
    expect((await kept()).sort()).toEqual(before.sort());
    const check = await post(second, '/api/v1/admin/erasure', { client_id: second.client });
    expect(check.status).toBe(403);
  });

  it('when an unknown or an invalid client id is erased, no admin log is kept under that id, only under the caller', async () => {
    const actionsKey = (client: string) => `${prefix}gateway:admin-actions:${client}`;
    const before = await state.redis.llen(actionsKey(admin.client));
    const unknown = `nobody-${run}`;
    const invalid = `${'x'.repeat(300)}-${run}`;
    const erased = await adminCall('POST', '/api/v1/admin/erasure', { client_id: unknown });
    expect(erased.status).toBe(200);
    expect(Object.values(erased.body.erased as Record<string, number>).every((count) => count === 0)).toBe(
      true,
    );
    expect((await adminCall('POST', '/api/v1/admin/erasure', { client_id: invalid })).status).toBe(400);
    // Both actions are logged, under the caller, once their answers have gone out.
    const logged = await within(
      ADMIN_ACTION_KEPT_MS,
      () => state.redis.llen(actionsKey(admin.client)),
      (length) => length >= before + 2,
    );
    expect(logged).toBeGreaterThanOrEqual(before + 2);
    expect(await state.redis.exists(actionsKey(unknown), actionsKey(invalid))).toBe(0);
  });
});
