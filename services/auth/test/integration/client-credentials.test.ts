import { tokenResponseSchema } from '@spam-check/contracts';
import { basic, introspect, postForm, refreshGrant, authForEachTest } from './harness';

const SERVER = { id: 'site-server', secret: 'site-server-secret' };

describe.each(['redis', 'memory'] as const)('grant_type=client_credentials (%s store)', (kind) => {
  const h = authForEachTest(kind, { AUTH_CLIENT_MAX_FAILURES: '3' });
  beforeEach(async () => {
    await h.accounts.upsertClient({
      ...SERVER,
      grants: ['client_credentials'],
      scopes: ['spam:check', 'spam:admin', 'spam:extra'],
    });
  });
  const token = (form: Record<string, string>, headers: Record<string, string> = {}) =>
    postForm(`${h.url}/oauth/token`, { grant_type: 'client_credentials', ...form }, headers);

  it('when the client is registered for it, it answers an access token without a refresh token', async () => {
    const answer = await token({}, { Authorization: basic(SERVER.id, SERVER.secret) });
    expect(answer.status).toBe(200);
    expect(tokenResponseSchema.strict().parse(answer.body)).toEqual({
      access_token: expect.stringMatching(/^[\w-]{43}$/),
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'spam:check',
    });
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const active = await introspect(h, answer.body.access_token);
    expect(active.body).toEqual({
      active: true,
      scope: 'spam:check',
      client_id: SERVER.id,
      token_type: 'Bearer',
      exp: expect.any(Number),
      iat: expect.any(Number),
    });
  });

  it('when the credentials are in the body and a scope within the client is asked, it grants that scope', async () => {
    const answer = await token({ client_id: SERVER.id, client_secret: SERVER.secret, scope: 'spam:extra' });
    expect(answer.status).toBe(200);
    expect(answer.body.scope).toBe('spam:extra');
  });

  it('when spam:admin is asked, it answers invalid_scope even though the client holds it', async () => {
    for (const scope of ['spam:admin', 'spam:check spam:admin']) {
      const answer = await token({ scope }, { Authorization: basic(SERVER.id, SERVER.secret) });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe('invalid_scope');
    }
    const unknown = await token({ scope: 'spam:other' }, { Authorization: basic(SERVER.id, SERVER.secret) });
    expect(unknown.body.error).toBe('invalid_scope');
  });

  it('when the client is not registered for it, it answers 400 unauthorized_client', async () => {
    const answer = await token({}, { Authorization: basic('app', 'app-secret') });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('unauthorized_client');
  });

  it('when a client_credentials token would be refreshed, there is nothing to refresh with', async () => {
    await h.accounts.upsertClient({
      id: 'app',
      secret: 'app-secret',
      grants: ['password', 'refresh_token', 'client_credentials'],
      scopes: ['spam:check'],
    });
    const answer = await token({}, { Authorization: basic('app', 'app-secret') });
    expect(answer.status).toBe(200);
    expect(answer.body.refresh_token).toBeUndefined();
    // The access token is no refresh token.
    expect((await refreshGrant(h, answer.body.access_token as string)).body.error).toBe('invalid_grant');
  });

  it('when the secret is wrong again and again, the client attempt limit answers 429 even to the right secret', async () => {
    for (let i = 0; i < 3; i++) {
      const wrong = await token({}, { Authorization: basic(SERVER.id, `wrong${i}`) });
      expect(wrong.status).toBe(401);
      expect(wrong.body.error).toBe('invalid_client');
    }
    const refused = await token({}, { Authorization: basic(SERVER.id, SERVER.secret) });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('when the client is removed, its client_credentials tokens introspect inactive', async () => {
    const answer = await token({}, { Authorization: basic(SERVER.id, SERVER.secret) });
    await h.accounts.removeClient(SERVER.id);
    expect((await introspect(h, answer.body.access_token as string)).body).toEqual({ active: false });
  });
});
