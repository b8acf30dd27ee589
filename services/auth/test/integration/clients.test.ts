import { SUPPORTED_LANGUAGES } from '@spam-check/contracts';
import { redisUrl } from '@spam-check/test-support';
import { Redis } from 'ioredis';
import { createSecretHasher } from '../../src/domain/secrets';
import { hashToken } from '../../src/domain/tokens';
import { runCli } from '../../src/entry-points/cli/commands';
import { DESCRIPTION_KEYS, errorDescription } from '../../src/entry-points/http/oauth-errors';
import {
  ALICE,
  APP_CLIENT,
  basic,
  introspect,
  passwordGrant,
  postForm,
  refreshGrant,
  startAuth,
  type Answer,
  type Harness,
} from './harness';

/** RFC 6749 §5.2: error_description is %x20-21 / %x23-5B / %x5D-7E only. */
const RFC6749_DESCRIPTION = /^[\x20-\x21\x23-\x5B\x5D-\x7E]*$/;

const LIMITS = { AUTH_CLIENT_MAX_FAILURES: '5', AUTH_LOGIN_MAX_FAILURES_PER_IP: '1000' };

const count = (answers: Answer[], status: number) => answers.filter((a) => a.status === status).length;

describe.each(['redis', 'memory'] as const)('client authentication (%s store)', (kind) => {
  let h: Harness;
  afterEach(async () => {
    await h.stop();
  });

  it('when 30 wrong client secrets hit revoke at once, only the limit is verified and then even the right one waits', async () => {
    // No cached success: the right secret has to be verified too, and is refused before any scrypt. The
    // store gets time enough for 30 calls at once on a loaded machine: a slow store's 503 is another test's.
    h = await startAuth(kind, {
      ...LIMITS,
      AUTH_CLIENT_AUTH_CACHE_SECONDS: '0',
      AUTH_REDIS_TIMEOUT_MS: '5000',
    });
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        postForm(
          `${h.url}/oauth/revoke`,
          { token: 'x' },
          { Authorization: basic(APP_CLIENT.id, `wrong${i}`) },
        ),
      ),
    );
    const statuses = Object.fromEntries([401, 429].map((status) => [status, count(answers, status)]));
    const others = answers.filter((a) => a.status !== 401 && a.status !== 429);
    expect({ statuses, others: others.map((a) => [a.status, a.body]) }).toEqual({
      statuses: { 401: 5, 429: 25 },
      others: [],
    });
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.body.error).toBe('invalid_request');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await passwordGrant(h)).status).toBe(429);
  });

  it('when a burst of calls with the right client secret meets a cold cache, they share one verification and none is refused', async () => {
    // Before: each call reserved its own slot of the per-client limit while its scrypt ran, so a burst of the
    // gateway's introspections above the limit got 429s although every secret was right.
    h = await startAuth(kind, LIMITS);
    const answers = await Promise.all(
      Array.from({ length: 40 }, () =>
        postForm(
          `${h.url}/oauth/revoke`,
          { token: 'x' },
          { Authorization: basic(APP_CLIENT.id, APP_CLIENT.secret) },
        ),
      ),
    );
    expect(count(answers, 200)).toBe(40);
  });

  it('when wrong client secrets come with refresh grants, they are counted too', async () => {
    h = await startAuth(kind, LIMITS);
    const token = (await passwordGrant(h)).body;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        postForm(
          `${h.url}/oauth/token`,
          { grant_type: 'refresh_token', refresh_token: token.refresh_token },
          { Authorization: basic(APP_CLIENT.id, `wrong${i}`) },
        ),
      ),
    );
    expect(count(answers, 401)).toBe(5);
    expect(count(answers, 429)).toBe(15);
    // The client's verified secret is remembered, so the attack does not lock the real client out meanwhile.
    expect((await refreshGrant(h, token.refresh_token)).status).toBe(200);
  });

  it('when wrong client secrets come from one IP for many client ids, the IP is refused', async () => {
    h = await startAuth(kind, { AUTH_CLIENT_MAX_FAILURES: '100', AUTH_LOGIN_MAX_FAILURES_PER_IP: '3' });
    const from = { 'X-Forwarded-For': '203.0.113.50' };
    const asClient = (id: string) =>
      postForm(`${h.url}/oauth/introspect`, { token: 'x' }, { Authorization: basic(id, 's'), ...from });
    for (let i = 0; i < 3; i++) expect((await asClient(`ghost${i}`)).status).toBe(401);
    expect((await asClient('ghost9')).status).toBe(429);
    // The gateway's own client, from its own address, is not affected.
    expect((await introspect(h, 'x')).status).toBe(200);
  });

  it('when credentials come both as Basic and in the body, it answers 400 invalid_request', async () => {
    h = await startAuth(kind);
    for (const path of ['/oauth/token', '/oauth/revoke']) {
      const answer = await postForm(
        `${h.url}${path}`,
        {
          grant_type: 'password',
          username: ALICE.username,
          password: ALICE.password,
          token: 'x',
          client_id: APP_CLIENT.id,
          client_secret: APP_CLIENT.secret,
        },
        { Authorization: basic(APP_CLIENT.id, APP_CLIENT.secret) },
      );
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe('invalid_request');
    }
  });

  it('when Basic credentials are form-encoded (RFC 6749 §2.3.1), the token endpoint decodes them as revoke does', async () => {
    h = await startAuth(kind);
    const odd = { id: 'web app:1', secret: 'Unreserved-only_secret.~9' };
    await h.accounts.upsertClient({ ...odd, grants: ['password', 'refresh_token'] });
    const issued = await passwordGrant(h, ALICE, {}, { Authorization: basic(odd.id, odd.secret) });
    expect(issued.status).toBe(200);
    const revoked = await postForm(
      `${h.url}/oauth/revoke`,
      { token: issued.body.access_token },
      { Authorization: basic(odd.id, odd.secret) },
    );
    expect(revoked.status).toBe(200);
    expect((await introspect(h, issued.body.access_token)).body).toEqual({ active: false });
  });

  it('when a client secret holds reserved characters, it is refused at creation and says why', async () => {
    h = await startAuth(kind);
    for (const secret of ['p@ss', 'a+b', 'a%41', 'a:b', 'a b', 'a/b'])
      await expect(h.accounts.upsertClient({ id: 'reserved', secret })).rejects.toThrow(
        /unreserved characters A-Z a-z 0-9 - \. _ ~: many HTTP Basic clients do not form-encode/,
      );
    expect(await h.store.getClient('reserved')).toBeUndefined();
    await h.accounts.upsertClient({ id: 'reserved', secret: 'fine-secret' });
    await expect(h.accounts.rotateClientSecret('reserved', 'not fine')).rejects.toThrow(/unreserved/);
    const issued = await passwordGrant(h, ALICE, {}, { Authorization: basic('reserved', 'fine-secret') });
    expect(issued.status).toBe(200);
  });

  it('when a secret is generated, it holds only unreserved characters and works as raw, unencoded Basic', async () => {
    h = await startAuth(kind);
    const secret = await h.accounts.createClient({ id: 'generated', grants: ['password'] });
    expect(secret).toMatch(/^[A-Za-z0-9._~-]{32,}$/);
    const raw = `Basic ${Buffer.from(`generated:${secret}`).toString('base64')}`;
    expect((await passwordGrant(h, ALICE, {}, { Authorization: raw })).status).toBe(200);
  });

  it('when the client may not use the refresh_token grant, the password grant issues no refresh token', async () => {
    h = await startAuth(kind);
    await h.accounts.upsertClient({ id: 'no-refresh', secret: 'no-refresh-secret', grants: ['password'] });
    const issued = await passwordGrant(
      h,
      ALICE,
      {},
      { Authorization: basic('no-refresh', 'no-refresh-secret') },
    );
    expect(issued.status).toBe(200);
    expect(issued.body).not.toHaveProperty('refresh_token');
    expect((await introspect(h, issued.body.access_token)).body.active).toBe(true);
  });

  it('when a client is removed, its tokens are inactive at once and its refresh tokens are refused', async () => {
    h = await startAuth(kind);
    await h.accounts.upsertClient({ id: 'leaving', secret: 'leaving-secret' });
    const issued = (await passwordGrant(h, ALICE, {}, { Authorization: basic('leaving', 'leaving-secret') }))
      .body;
    expect((await introspect(h, issued.access_token)).body.active).toBe(true);
    await h.store.deleteClient('leaving');
    expect((await introspect(h, issued.access_token)).body).toEqual({ active: false });
  });

  it('when the description is in any language, every one in the catalogue uses only RFC 6749 §5.2 characters', async () => {
    h = await startAuth(kind);
    for (const language of SUPPORTED_LANGUAGES)
      for (const key of DESCRIPTION_KEYS)
        expect(errorDescription({ description: key }, language)).toMatch(RFC6749_DESCRIPTION);
    const french = await passwordGrant(
      h,
      { username: ALICE.username, password: 'nope' },
      {},
      { 'Accept-Language': 'fr' },
    );
    expect(french.body.error_description).toMatch(RFC6749_DESCRIPTION);
    expect(french.body.error_description).toMatch(/identifiants/);
  });
});

describe('removing a client with the CLI', () => {
  it('revokes its tokens and announces their hashes', async () => {
    const h = await startAuth('redis');
    const subscriber = new Redis(redisUrl());
    const published: string[] = [];
    try {
      subscriber.on('message', (_channel: string, message: string) => published.push(message));
      await subscriber.subscribe(h.channel);
      await h.accounts.upsertClient({ id: 'web', secret: 'web-secret' });
      const issued = (await passwordGrant(h, ALICE, {}, { Authorization: basic('web', 'web-secret') })).body;
      const cli = (...argv: string[]) =>
        runCli(argv, { store: h.store, hasher: createSecretHasher(1024), out: () => undefined });
      expect(await cli('client', 'remove', 'web')).toBe(0);
      expect((await introspect(h, issued.access_token)).body).toEqual({ active: false });
      for (let i = 0; i < 50 && published.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(published).toHaveLength(1);
      expect(JSON.parse(published[0]!).access_token_sha256).toHaveLength(1);
      expect(await h.store.getRefreshToken(hashToken(issued.refresh_token))).toBeUndefined();
    } finally {
      subscriber.disconnect();
      await h.stop();
    }
  });
});
