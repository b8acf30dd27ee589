import { tokenResponseSchema } from '@spam-check/contracts';
import { ALICE, APP_CLIENT, basic, passwordGrant, postForm, authForEachTest, json } from './harness';

/** Alice's password grant, without the client: each test says how the client authenticates. */
const aliceGrant = { grant_type: 'password', username: ALICE.username, password: ALICE.password };

describe.each(['redis', 'memory'] as const)('POST /oauth/token (%s store)', (kind) => {
  const h = authForEachTest(kind);
  const token = (form: Record<string, string>, headers: Record<string, string> = {}) =>
    postForm(`${h.url}/oauth/token`, form, headers);

  it('when the password grant is valid with HTTP Basic, it answers RFC 6749 §5.1 tokens, never cached', async () => {
    const answer = await passwordGrant(h);
    expect(answer.status).toBe(200);
    expect(tokenResponseSchema.parse(answer.body)).toEqual({
      access_token: expect.stringMatching(/^[\w-]{43}$/),
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: expect.stringMatching(/^[\w-]{43}$/),
      scope: 'spam:check',
    });
    expect(answer.body.access_token).not.toBe(answer.body.refresh_token);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('pragma')).toBe('no-cache');
  });

  it('when the client credentials are in the body, it issues tokens too', async () => {
    const answer = await token({
      ...aliceGrant,
      client_id: APP_CLIENT.id,
      client_secret: APP_CLIENT.secret,
      scope: 'spam:extra spam:check',
    });
    expect(answer.status).toBe(200);
    expect(answer.body.scope).toBe('spam:extra spam:check');
  });

  it('when the body is JSON, it answers 400 invalid_request saying the endpoint takes form encoding', async () => {
    const response = await fetch(`${h.url}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: basic(APP_CLIENT.id, APP_CLIENT.secret) },
      body: JSON.stringify(aliceGrant),
    });
    expect(response.status).toBe(400);
    const body = await json(response);
    expect(body.error).toBe('invalid_request');
    expect(body.error_description).toMatch(/application\/x-www-form-urlencoded/);
  });

  it('when a parameter is missing or repeated, it answers 400 invalid_request', async () => {
    const missing = await token(
      { grant_type: 'password', username: ALICE.username },
      { Authorization: basic(APP_CLIENT.id, APP_CLIENT.secret) },
    );
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      error: 'invalid_request',
      error_description: expect.stringMatching(/password/),
    });
    const response = await fetch(`${h.url}/oauth/token`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Authorization: basic(APP_CLIENT.id, APP_CLIENT.secret),
      },
      body: 'grant_type=password&username=alice&username=bob&password=x',
    });
    expect(response.status).toBe(400);
    expect((await json(response)).error).toBe('invalid_request');
  });

  it('when the client secret is wrong over Basic, it answers 401 invalid_client with a Basic challenge', async () => {
    const answer = await token(aliceGrant, { Authorization: basic(APP_CLIENT.id, 'wrong') });
    expect(answer.status).toBe(401);
    expect(answer.body.error).toBe('invalid_client');
    expect(answer.headers.get('www-authenticate')).toMatch(/^Basic realm="spam-check"/);
  });

  it('when the client secret is wrong in the body, it answers invalid_client without a challenge', async () => {
    const answer = await token({
      ...aliceGrant,
      client_id: APP_CLIENT.id,
      client_secret: 'wrong',
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('invalid_client');
    expect(answer.headers.get('www-authenticate')).toBeNull();
  });

  it('when the password is wrong or the user unknown, both answer the same 400 invalid_grant', async () => {
    const wrong = await passwordGrant(h, { username: ALICE.username, password: 'nope' });
    const unknown = await passwordGrant(h, { username: 'nobody', password: 'nope' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('invalid_grant');
    expect(unknown.status).toBe(wrong.status);
    expect(unknown.body).toEqual(wrong.body);
  });

  it('when the client is not registered for the grant, it answers 400 unauthorized_client', async () => {
    await h.accounts.upsertClient({ id: 'refresh-only', secret: 's3cret', grants: ['refresh_token'] });
    const answer = await token(aliceGrant, { Authorization: basic('refresh-only', 's3cret') });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('unauthorized_client');
  });

  it('when the grant type is not one this server offers, it answers 400 unsupported_grant_type', async () => {
    for (const grant of ['authorization_code', 'implicit', 'urn:example:magic']) {
      const answer = await token(
        { grant_type: grant },
        { Authorization: basic(APP_CLIENT.id, APP_CLIENT.secret) },
      );
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe('unsupported_grant_type');
    }
  });

  it('when the scope is not allowed for the client, it answers 400 invalid_scope', async () => {
    const answer = await passwordGrant(h, ALICE, { scope: 'spam:check admin' });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('invalid_scope');
  });

  it('when the language is German, the description is German and the error code unchanged', async () => {
    const answer = await passwordGrant(
      h,
      { username: ALICE.username, password: 'nope' },
      {},
      {
        'Accept-Language': 'de',
      },
    );
    expect(answer.body.error).toBe('invalid_grant');
    expect(answer.body.error_description).toMatch(/ungueltig/);
  });

  it('when another method is used, it answers 405 with Allow: POST', async () => {
    const response = await fetch(`${h.url}/oauth/token`);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });
});
