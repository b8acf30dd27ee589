import { hybridResultSchema, reasonMessage } from '@spam-check/contracts';
import { obtainToken, postJson, request, within } from './client';
import { adminApiForSuite } from './admin-stack';

const clientIds = (body: { clients: { id: string }[] }) => body.clients.map((client) => client.id);
const errorPaths = (body: { errors: { path: string }[] }) => body.errors.map((error) => error.path);
const reasonCodes = (body: { reasons: { code: string }[] }) => body.reasons.map((reason) => reason.code);

// The admin API through two gateway processes (admin-stack.ts): access, clients and their settings.
describe('the admin API, end to end over HTTP', () => {
  const { run, admin, plainUser, other, state, adminCall, createClient, checkToken } = adminApiForSuite();

  describe('access', () => {
    it('when the token lacks spam:admin, every admin endpoint answers 403 insufficient_scope', async () => {
      const token = await checkToken(other.client, other.secret);
      for (const [method, path] of [
        ['GET', '/api/v1/admin/clients'],
        ['POST', '/frapi/v1/admin/clients'],
        ['GET', `/deapi/v1/admin/clients/${other.client}/settings`],
        ['GET', `/api/v1/admin/clients/${other.client}/stats`],
        ['DELETE', `/api/v1/admin/clients/${other.client}`],
      ] as const) {
        const answer = await adminCall(
          method,
          path,
          method === 'POST' ? { id: 'x' } : undefined,
          state.stack.gateway,
          token,
        );
        expect(answer.status).toBe(403);
        expect(answer.body.code).toBe('INSUFFICIENT_SCOPE');
        expect(answer.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
      }
    });

    it('without a token, it answers 401 with a bearer challenge', async () => {
      const answer = await request(`${state.stack.gateway}/api/v1/admin/clients`);
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="spam-check"');
    });

    it('when the user does not hold spam:admin, the admin client cannot get it for them', async () => {
      const issued = await obtainToken(state.stack.gateway, '/', { ...admin, ...plainUser });
      expect(issued.status).toBe(400);
      expect(issued.body.error).toBe('invalid_scope');
    });
  });

  describe('clients', () => {
    it('creates a client whose secret is shown once, and lists clients without secrets or hashes', async () => {
      const id = `created-${run}`;
      const created = await adminCall('POST', '/deapi/v1/admin/clients', { id });
      expect(created.status).toBe(201);
      expect(created.headers.get('cache-control')).toBe('no-store');
      expect(created.body).toEqual({
        id,
        grants: ['password', 'refresh_token'],
        scopes: ['spam:check'],
        client_secret: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
      });
      await checkToken(id, created.body.client_secret);

      const listed = await adminCall('GET', '/frapi/v1/admin/clients');
      expect(listed.status).toBe(200);
      const mine = (listed.body.clients as { id: string }[]).find((client) => client.id === id);
      expect(mine).toEqual({ id, grants: ['password', 'refresh_token'], scopes: ['spam:check'] });
      const text = JSON.stringify(listed.body);
      expect(text).not.toContain(created.body.client_secret);
      expect(text).not.toMatch(/secret|hash|scrypt/i);
      expect(clientIds(listed.body)).not.toContain(`gateway-${run}`);

      const again = await adminCall('POST', '/api/v1/admin/clients', { id });
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('CLIENT_EXISTS');
    });

    it('when one id is created several times at once, one create wins and its secret is the one that works', async () => {
      const id = `raced-${run}`;
      const answers = await Promise.all(
        [0, 1, 2, 3].map(() => adminCall('POST', '/api/v1/admin/clients', { id, grants: ['password'] })),
      );
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409, 409]);
      const won = answers.find((answer) => answer.status === 201)!;
      for (const lost of answers.filter((answer) => answer.status === 409))
        expect(lost.body.code).toBe('CLIENT_EXISTS');
      await checkToken(id, won.body.client_secret);
    });

    it('when the body is invalid, it answers 400 naming the field and creates nothing', async () => {
      const id = `invalid-${run}`;
      const answer = await adminCall('POST', '/api/v1/admin/clients', { id, scopes: ['auth:introspect'] });
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('VALIDATION_FAILED');
      expect(errorPaths(answer.body)).toContain('scopes.0');
      const listed = await adminCall('GET', '/api/v1/admin/clients');
      expect(clientIds(listed.body)).not.toContain(id);
    });

    it('when the secret is rotated, the old one is refused at once and the new one works', async () => {
      const id = `rotated-${run}`;
      const old = await createClient(id);
      await checkToken(id, old);
      const rotated = await adminCall('POST', `/deapi/v1/admin/clients/${id}/secret`);
      expect(rotated.status).toBe(200);
      expect(rotated.body.client_secret).not.toBe(old);
      const refused = await obtainToken(state.stack.gateway, '/', { client: id, secret: old, ...plainUser });
      expect(refused.status).toBe(401);
      expect(refused.body.error).toBe('invalid_client');
      await checkToken(id, rotated.body.client_secret);
    });

    it('when a client is deleted, its tokens are refused on every gateway within 1 s', async () => {
      const id = `deleted-${run}`;
      const token = await checkToken(id, await createClient(id));
      const check = (gateway: string) => () =>
        postJson(`${gateway}/api/v1/spam/mail`, token, { email: 'a@b.de' });
      for (const gateway of state.gateways) expect((await check(gateway)()).status).toBe(200);

      const deleted = await adminCall('DELETE', `/api/v1/admin/clients/${id}`);
      expect(deleted.status).toBe(204);
      for (const gateway of state.gateways) {
        const answer = await within(1000, check(gateway), (r) => r.status === 401);
        expect(answer.status).toBe(401);
        expect(answer.body.code).toBe('INVALID_TOKEN');
      }
      expect((await adminCall('DELETE', `/api/v1/admin/clients/${id}`)).status).toBe(404);
    });

    it('when a path does not name a client of the admin API, it is 404 CLIENT_NOT_FOUND', async () => {
      for (const id of [`nobody-${run}`, `gateway-${run}`]) {
        const answer = await adminCall('POST', `/api/v1/admin/clients/${id}/secret`);
        expect(answer.status).toBe(404);
        expect(answer.body.code).toBe('CLIENT_NOT_FOUND');
      }
    });
  });

  describe('settings', () => {
    it('when the document is invalid, it answers 400 naming the field and stores nothing', async () => {
      const id = `badsettings-${run}`;
      await createClient(id);
      for (const [body, path] of [
        [{ mail: { spam_threshold: 2 } }, 'mail.spam_threshold'],
        [{ text: { llm_mode: 'sometimes' } }, 'text.llm_mode'],
        [{ text: { spam_threshold: 0.4, suspicious_threshold: 0.6 } }, 'text.suspicious_threshold'],
        [{ hybrid: { step_by_step: 'yes' } }, 'hybrid.step_by_step'],
        [{ mail: { alow: ['x.de'] } }, 'mail'],
      ] as const) {
        const answer = await adminCall('PUT', `/api/v1/admin/clients/${id}/settings`, body);
        expect(answer.status).toBe(400);
        expect(answer.body.code).toBe('VALIDATION_FAILED');
        expect(errorPaths(answer.body)).toContain(path);
      }
      const stored = await adminCall('GET', `/api/v1/admin/clients/${id}/settings`);
      expect(stored.status).toBe(200);
      expect(stored.body).toEqual({});
      const unknown = await adminCall('PUT', `/api/v1/admin/clients/nobody-${run}/settings`, {});
      expect(unknown.status).toBe(404);
    });

    it('when the thresholds are out of order, the message is in the language of the path', async () => {
      const id = `thresholds-${run}`;
      await createClient(id);
      const body = { mail: { spam_threshold: 0.4, suspicious_threshold: 0.6 } };
      for (const [prefix, message] of [
        ['/deapi', 'darf nicht größer als spam_threshold sein'],
        ['/frapi', 'ne doit pas dépasser spam_threshold'],
        ['/api', 'must not be greater than spam_threshold'],
      ] as const) {
        const answer = await adminCall('PUT', `${prefix}/v1/admin/clients/${id}/settings`, body);
        expect(answer.status).toBe(400);
        expect(answer.body.errors).toEqual([{ path: 'mail.suspicious_threshold', message }]);
      }
    });

    it('runs a trial check as the client, with its settings, and counts none of it in its usage', async () => {
      const id = `trial-${run}`;
      const secret = await createClient(id);
      const settings = { mail: { deny: ['trial.example'] }, text: { deny_terms: ['zebracorn'] } };
      expect((await adminCall('PUT', `/api/v1/admin/clients/${id}/settings`, settings)).status).toBe(200);
      const trial = (kind: string, body: unknown, client = id) =>
        adminCall('POST', `/api/v1/admin/clients/${client}/try/${kind}`, body);

      const mail = await within(
        1000,
        () => trial('mail', { email: 'someone@trial.example' }),
        (r) => r.body.verdict === 'spam',
      );
      expect(mail.status).toBe(200);
      expect(reasonCodes(mail.body)).toContain('EMAIL_CLIENT_DENY_LISTED');
      const text = await trial('text', { title: 'Hello', body: 'A zebracorn came by.' });
      expect(text.status).toBe(200);
      expect(reasonCodes(text.body)).toContain('TEXT_CLIENT_DENY_LISTED');
      const hybrid = await trial('hybrid', { email: 'jo@example.org', title: 'Hello', body: 'A zebracorn.' });
      expect(hybrid.status).toBe(200);
      expect(hybridResultSchema.safeParse(hybrid.body).success).toBe(true);
      expect(reasonCodes(hybrid.body.text)).toContain('TEXT_CLIENT_DENY_LISTED');
      // Under a language prefix, as the console sends it: the reasons in that language.
      const german = await adminCall('POST', `/deapi/v1/admin/clients/${id}/try/text`, {
        title: 'Hallo',
        body: 'Ein zebracorn kam vorbei.',
      });
      expect(german.status).toBe(200);
      expect(german.body.reasons).toContainEqual(
        expect.objectContaining({
          code: 'TEXT_CLIENT_DENY_LISTED',
          message: reasonMessage('TEXT_CLIENT_DENY_LISTED', 'de'),
        }),
      );
      // Another client's trial of the same address: its settings, not this client's.
      const otherTrial = await trial('mail', { email: 'someone@trial.example' }, other.client);
      expect(reasonCodes(otherTrial.body)).not.toContain('EMAIL_CLIENT_DENY_LISTED');

      const invalid = await trial('text', { body: 'no title' });
      expect([invalid.status, invalid.body.code]).toEqual([400, 'VALIDATION_FAILED']);
      expect(errorPaths(invalid.body)).toContain('title');
      expect((await trial('mail', { email: 'a@b.example' }, `nobody-${run}`)).status).toBe(404);
      expect((await trial('video', {})).status).toBe(404);

      // One real check after the trials: once the stats show it, they show everything counted before it.
      const real = await postJson(`${state.stack.gateway}/api/v1/spam/mail`, await checkToken(id, secret), {
        email: 'real@trial.example',
      });
      expect(real.status).toBe(200);
      const stats = await within(
        5000,
        () => adminCall('GET', `/api/v1/admin/clients/${id}/stats?interval=hour`),
        (r) => r.body.totals?.mail.spam === 1,
      );
      expect(stats.status).toBe(200);
      expect(stats.body.totals).toEqual({
        mail: { ham: 0, suspicious: 0, spam: 1 },
        text: { ham: 0, suspicious: 0, spam: 0 },
        hybrid: { ham: 0, suspicious: 0, spam: 0 },
      });
    });

    it('when settings change, every gateway and detector applies them within 1 s, over HTTP and RPC, for that client only', async () => {
      const id = `tuned-${run}`;
      const token = await checkToken(id, await createClient(id));
      const othersToken = await checkToken(other.client, other.secret);
      const mail =
        (gateway: string, as = token) =>
        () =>
          postJson(`${gateway}/api/v1/spam/mail`, as, { email: `anna@blocked-${run}.example` });
      const text = (gateway: string) => () =>
        postJson(`${gateway}/api/v1/spam/text`, token, {
          title: 'Hallo',
          body: `Danke für den schönen Artikel über zorblax-${run}, er hat mir sehr geholfen.`,
        });
      const hybrid = (gateway: string) => () =>
        postJson(`${gateway}/api/v1/spam/hybrid-check`, token, {
          email: `anna@blocked-${run}.example`,
          title: 'Hallo',
          body: 'Schöner Beitrag, danke.',
        });
      // Read once so that every process holds the (empty) settings in its cache before the change.
      for (const gateway of state.gateways) {
        expect((await mail(gateway)()).body.verdict).not.toBe('spam');
        expect((await text(gateway)()).body.verdict).not.toBe('spam');
        expect((await hybrid(gateway)()).body.mode).toBe('parallel');
      }

      const document = {
        mail: { deny: [`blocked-${run}.example`] },
        text: { deny_terms: [`ZORBLAX-${run}`], llm_mode: 'never' },
        hybrid: { step_by_step: true },
      };
      const put = await adminCall('PUT', `/frapi/v1/admin/clients/${id}/settings`, document);
      expect(put.status).toBe(200);
      expect(put.body).toEqual(document);
      expect((await adminCall('GET', `/api/v1/admin/clients/${id}/settings`)).body).toEqual(document);

      for (const gateway of state.gateways) {
        const mailAnswer = await within(1000, mail(gateway), (r) => r.body.verdict === 'spam');
        expect(reasonCodes(mailAnswer.body)).toContain('EMAIL_CLIENT_DENY_LISTED');
        const textAnswer = await within(1000, text(gateway), (r) => r.body.verdict === 'spam');
        expect(reasonCodes(textAnswer.body)).toContain('TEXT_CLIENT_DENY_LISTED');
        // Step-by-step by default now: over RabbitMQ RPC; the spam e-mail stops the text.
        const hybridAnswer = hybridResultSchema.parse(
          (await within(1000, hybrid(gateway), (r) => r.body.mode === 'step_by_step')).body,
        );
        expect(hybridAnswer).toMatchObject({
          mode: 'step_by_step',
          spam: true,
          text: null,
          skipped: ['text'],
        });
        expect(hybridAnswer.email.reasons.map((r) => r.code)).toContain('EMAIL_CLIENT_DENY_LISTED');
        // Both e-mail detectors consume the RPC queue: each must have dropped its cached copy.
        for (let i = 0; i < 4; i += 1) {
          const again = hybridResultSchema.parse((await hybrid(gateway)()).body);
          expect(again.email.reasons.map((r) => r.code)).toContain('EMAIL_CLIENT_DENY_LISTED');
        }
        // An explicit header still wins over the default.
        const parallel = await postJson(
          `${gateway}/api/v1/spam/hybrid-check`,
          token,
          { email: 'x@y.de', title: 'a', body: 'b' },
          { 'X-Internal-Step-By-Step': 'off' },
        );
        expect(parallel.body.mode).toBe('parallel');
        // Another client is not affected.
        expect((await mail(gateway, othersToken)()).body.verdict).not.toBe('spam');
      }

      const loosened = await adminCall('PUT', `/api/v1/admin/clients/${id}/settings`, {
        mail: { spam_threshold: 0.05, suspicious_threshold: 0.01 },
      });
      expect(loosened.status).toBe(200);
      for (const gateway of state.gateways) {
        const freeMail = () =>
          postJson(`${gateway}/api/v1/spam/mail`, token, { email: 'anna.schmidt@gmx.de' });
        expect((await within(1000, freeMail, (r) => r.body.verdict === 'spam')).body.verdict).toBe('spam');
        const blocked = await within(1000, mail(gateway), (r) => r.body.verdict !== 'spam');
        expect(reasonCodes(blocked.body)).not.toContain('EMAIL_CLIENT_DENY_LISTED');
        expect((await hybrid(gateway)()).body.mode).toBe('parallel');
      }
    });
    it("applies a client's lists before its reports, on single and batch checks over every gateway", async () => {
      const id = `reported-${run}`;
      const token = await checkToken(id, await createClient(id));
      const listed = `anna@listed-${run}.example`;
      const reported = `bert@reported-${run}.example`;
      const text = { title: 'Hallo', body: `Danke für den Artikel über quorbl-${run}, er hat mir geholfen.` };
      const put = await adminCall('PUT', `/api/v1/admin/clients/${id}/settings`, {
        mail: { deny: [`listed-${run}.example`] },
        text: { deny_terms: [`QUORBL-${run}`] },
      });
      expect(put.status).toBe(200);
      // The client reports its own listed address and text as ham: its lists still decide (docs/design.md,
      // Learning from reports).
      for (const report of [
        { email: listed, label: 'ham' },
        { email: reported, label: 'spam' },
        { ...text, label: 'ham' },
      ]) {
        const answer = await postJson(`${state.stack.gateway}/api/v1/spam/feedback`, token, report);
        expect(answer.status).toBe(200);
      }

      for (const gateway of state.gateways) {
        const mails = await within(
          1000,
          () => postJson(`${gateway}/api/v1/spam/mail/batch`, token, { emails: [listed, reported] }),
          (r) => r.body.results?.[0]?.verdict === 'spam',
        );
        expect(mails.status).toBe(200);
        expect(reasonCodes(mails.body.results[0])).toContain('EMAIL_CLIENT_DENY_LISTED');
        expect(reasonCodes(mails.body.results[0])).not.toContain('EMAIL_REPORTED_HAM');
        expect(mails.body.results[1].verdict).toBe('spam');
        expect(reasonCodes(mails.body.results[1])).toContain('EMAIL_REPORTED_SPAM');
        const single = await postJson(`${gateway}/api/v1/spam/mail`, token, { email: listed });
        expect(reasonCodes(single.body)).toEqual(['EMAIL_CLIENT_DENY_LISTED']);

        const texts = await postJson(`${gateway}/api/v1/spam/text/batch`, token, { items: [text] });
        expect(texts.status).toBe(200);
        expect(texts.body.results[0].verdict).toBe('spam');
        expect(reasonCodes(texts.body.results[0])).toContain('TEXT_CLIENT_DENY_LISTED');
        expect(reasonCodes(texts.body.results[0])).not.toContain('TEXT_REPORTED_HAM');
      }
      // Another client is judged by neither these lists nor these reports.
      const othersToken = await checkToken(other.client, other.secret);
      const others = await postJson(`${state.stack.gateway}/api/v1/spam/mail/batch`, othersToken, {
        emails: [listed, reported],
      });
      const othersCodes = (others.body.results as { reasons: { code: string }[] }[]).flatMap(reasonCodes);
      expect(othersCodes).not.toContain('EMAIL_CLIENT_DENY_LISTED');
      expect(othersCodes).not.toContain('EMAIL_REPORTED_SPAM');
    });
  });
});
