import { randomUUID } from 'node:crypto';
import { clientStatsSchema, recentFeedbackSchema } from '@spam-check/contracts';
import { keysUnder, redisUrl } from '@spam-check/test-support';
import { Redis } from 'ioredis';
import { postJson, within } from './client';
import { adminApiForSuite } from './admin-stack';

// The admin API through two gateway processes (admin-stack.ts): usage statistics and the admin log.
describe('the admin API, end to end over HTTP: stats and the admin log', () => {
  const { run, admin, state, adminCall, createClient, checkToken } = adminApiForSuite();

  describe('stats and the admin log', () => {
    it('counts checks per kind and verdict, reasons and latency, and shows recent admin actions without secrets', async () => {
      const id = `counted-${run}`;
      const secret = await createClient(id);
      const token = await checkToken(id, secret);
      await adminCall('PUT', `/api/v1/admin/clients/${id}/settings`, { mail: { deny: ['counted.example'] } });
      await adminCall('POST', `/api/v1/admin/clients/${id}/secret`);
      const akismetKey = await adminCall('POST', `/api/v1/admin/clients/${id}/akismet-key`);
      expect(akismetKey.status).toBe(201);
      expect((await adminCall('DELETE', `/api/v1/admin/clients/${id}/akismet-key`)).status).toBe(204);
      for (const gateway of state.gateways) {
        await within(
          1000,
          () => postJson(`${gateway}/api/v1/spam/mail`, token, { email: 'a@counted.example' }),
          (r) => r.body.verdict === 'spam',
        );
        expect(
          (await postJson(`${gateway}/api/v1/spam/text`, token, { title: 'Hi', body: 'Nice post, thanks.' }))
            .status,
        ).toBe(200);
      }
      const stats = async () => adminCall('GET', `/deapi/v1/admin/clients/${id}/stats?interval=hour`);
      const answer = await within(
        5000,
        stats,
        (r) =>
          r.body?.totals?.mail?.spam >= 2 &&
          r.body.totals.text.ham + r.body.totals.text.suspicious + r.body.totals.text.spam >= 2,
      );
      expect(answer.status).toBe(200);
      const body = clientStatsSchema.parse(answer.body);
      expect(body.totals.mail.spam).toBeGreaterThanOrEqual(2);
      expect(body.series.at(-1)?.checks.mail.spam).toBeGreaterThanOrEqual(2);
      expect(body.top_reasons.map((reason) => reason.code)).toContain('EMAIL_CLIENT_DENY_LISTED');
      expect(body.latency_ms.mail.p50).not.toBeNull();
      expect(body.latency_ms.mail.p99).toBeGreaterThanOrEqual(body.latency_ms.mail.p50 ?? 0);
      expect(body.feedback).toEqual({ spam: 0, ham: 0 });
      expect(body.recent_admin_actions.map((action) => action.action)).toEqual([
        'akismet_key.revoke',
        'akismet_key.issue',
        'client.rotate_secret',
        'settings.update',
        'client.create',
      ]);
      expect(body.recent_admin_actions[2]).toMatchObject({
        actor: { client_id: admin.client, username: admin.username },
        client_id: id,
        status: 200,
      });
      expect(JSON.stringify(body)).not.toContain(secret);
      expect(JSON.stringify(body)).not.toContain(akismetKey.body.key);

      const daily = await adminCall(
        'GET',
        `/api/v1/admin/clients/${id}/stats?interval=day&from=${new Date(Date.now() - 30 * 86400_000).toISOString()}`,
      );
      expect(daily.status).toBe(200);
      expect(daily.body.series).toHaveLength(31);
      expect(daily.body.totals).toEqual(body.totals);

      const tooLong = await adminCall('GET', `/api/v1/admin/clients/${id}/stats?from=2020-01-01T00:00:00Z`);
      expect(tooLong.status).toBe(400);
      expect(tooLong.body.errors[0].path).toBe('from');

      const logs = state.stack.services.gateway.output() + state.second.gateway.output();
      expect(logs).toContain('"admin action"');
      expect(logs).toContain(`"client_id":"${id}"`);
      expect(logs).not.toContain(secret);
    });

    it('counts each checked item of a batch and each accepted feedback report', async () => {
      const id = `batched-${run}`;
      const token = await checkToken(id, await createClient(id));
      const mails = await postJson(`${state.stack.gateway}/api/v1/spam/mail/batch`, token, {
        emails: ['a@example.org', 'b@example.org', 'not an address', 42],
      });
      expect(mails.status).toBe(200);
      const texts = await postJson(`${state.second.gateway.url}/api/v1/spam/text/batch`, token, {
        items: [
          { title: 'Hallo', body: 'Schöner Beitrag, danke.' },
          { title: 'Hi', body: 'Nice post, thanks.' },
        ],
      });
      expect(texts.status).toBe(200);
      for (const report of [
        { email: 'a@example.org', label: 'spam' },
        { email: 'b@example.org', label: 'ham' },
        { check_id: texts.body.results[0].id, label: 'spam' },
      ]) {
        expect((await postJson(`${state.stack.gateway}/api/v1/spam/feedback`, token, report)).status).toBe(
          200,
        );
      }
      const unknown = await postJson(`${state.stack.gateway}/api/v1/spam/feedback`, token, {
        check_id: randomUUID(),
        label: 'ham',
      });
      expect(unknown.status).toBe(404);

      const total = (counts: { ham: number; suspicious: number; spam: number }) =>
        counts.ham + counts.suspicious + counts.spam;
      const answer = await within(
        5000,
        () => adminCall('GET', `/api/v1/admin/clients/${id}/stats?interval=hour`),
        (r) =>
          r.body?.totals?.mail !== undefined &&
          total(r.body.totals.mail) >= 3 &&
          total(r.body.totals.text) >= 2 &&
          r.body.feedback.spam + r.body.feedback.ham >= 3,
      );
      const body = clientStatsSchema.parse(answer.body);
      // The bad address is a result (valid: false) and counts; the number is refused in the batch and does not.
      expect(total(body.totals.mail)).toBe(3);
      expect(total(body.totals.text)).toBe(2);
      expect(body.latency_ms.text.p50).not.toBeNull();
      expect(body.feedback).toEqual({ spam: 2, ham: 1 });

      // The recent reports: newest first, what was reported and never the address or text.
      const recent = await adminCall('GET', `/api/v1/admin/clients/${id}/feedback?limit=2`);
      expect(recent.status).toBe(200);
      expect(recent.headers.get('cache-control')).toBe('no-store');
      const reports = recentFeedbackSchema.parse(recent.body);
      expect(reports.client_id).toBe(id);
      expect(reports.feedback.map((entry) => [entry.label, entry.check_id, entry.applied_to])).toEqual([
        ['spam', texts.body.results[0].id, ['text']],
        ['ham', null, ['email']],
      ]);
      expect(JSON.stringify(recent.body)).not.toContain('example.org');
      for (const query of ['limit=0', 'limit=51', 'limit=two'])
        expect((await adminCall('GET', `/api/v1/admin/clients/${id}/feedback?${query}`)).status).toBe(400);
      // With a language prefix: the same reports, and a problem in that language.
      const prefixed = await adminCall('GET', `/deapi/v1/admin/clients/${id}/feedback?limit=2`);
      expect(prefixed.status).toBe(200);
      expect(recentFeedbackSchema.parse(prefixed.body).feedback).toEqual(reports.feedback);
      const [english, french] = await Promise.all(
        ['/api', '/frapi'].map((prefix) =>
          adminCall('GET', `${prefix}/v1/admin/clients/${id}/feedback?limit=0`),
        ),
      );
      expect(french?.status).toBe(400);
      expect(french?.body.code).toBe(english?.body.code);
      expect(french?.body.detail).not.toBe(english?.body.detail);
      const unknownClient = await adminCall('GET', `/api/v1/admin/clients/nobody-${run}/feedback`);
      expect(unknownClient.body.code).toBe('CLIENT_NOT_FOUND');
    });

    it('keeps a client hour within a bounded size in Redis', async () => {
      const redis = new Redis(redisUrl());
      try {
        const keys = await keysUnder(redis, `admin-${run}:gateway:usage:`);
        expect(keys.length).toBeGreaterThan(0);
        for (const key of keys) {
          expect(await redis.ttl(key)).toBeGreaterThan(30 * 86400);
          expect(Number(await redis.memory('USAGE', key))).toBeLessThan(2048);
        }
      } finally {
        redis.disconnect();
      }
    });
  });
});
