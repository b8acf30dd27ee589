import { Redis } from 'ioredis';
import { redisUrl } from '@spam-check/test-support';
import { hashToken } from '../../src/domain/tokens';
import {
  APP_CLIENT,
  authForEachTest,
  GATEWAY,
  basic,
  introspect,
  passwordGrant,
  postForm,
  refreshGrant,
  revoke,
  startAuth,
  type Harness,
  json,
} from './harness';

describe('POST /oauth/introspect', () => {
  const h = authForEachTest('redis');

  it('when the access token is live, it answers active with scope, client, user and times', async () => {
    const token = (await passwordGrant(h)).body;
    const answer = await introspect(h, token.access_token);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.body).toEqual({
      active: true,
      scope: 'spam:check',
      client_id: APP_CLIENT.id,
      username: 'alice',
      token_type: 'Bearer',
      exp: expect.any(Number),
      iat: expect.any(Number),
    });
    expect(answer.body.exp - answer.body.iat).toBe(3600);
  });

  it('when the token is unknown or a refresh token, it answers {active:false}', async () => {
    const token = (await passwordGrant(h)).body;
    expect((await introspect(h, 'unknown')).body).toEqual({ active: false });
    expect((await introspect(h, token.refresh_token)).body).toEqual({ active: false });
  });

  it('when the caller sends JSON, it answers as for a form', async () => {
    const token = (await passwordGrant(h)).body;
    const response = await fetch(`${h.url}/oauth/introspect`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: basic(GATEWAY.id, GATEWAY.secret) },
      body: JSON.stringify({ token: token.access_token }),
    });
    expect(response.status).toBe(200);
    expect((await json(response)).active).toBe(true);
  });

  it('when the caller is not authenticated, it answers 401 invalid_client with a challenge', async () => {
    const answer = await postForm(`${h.url}/oauth/introspect`, { token: 'x' });
    expect(answer.status).toBe(401);
    expect(answer.body.error).toBe('invalid_client');
    expect(answer.headers.get('www-authenticate')).toMatch(/^Basic/);
    const wrong = await postForm(
      `${h.url}/oauth/introspect`,
      { token: 'x' },
      { Authorization: basic(GATEWAY.id, 'no') },
    );
    expect(wrong.status).toBe(401);
  });

  it('when the caller lacks the auth:introspect scope, it answers 403 unauthorized_client', async () => {
    const answer = await postForm(
      `${h.url}/oauth/introspect`,
      { token: 'x' },
      { Authorization: basic(APP_CLIENT.id, APP_CLIENT.secret) },
    );
    expect(answer.status).toBe(403);
    expect(answer.body.error).toBe('unauthorized_client');
  });
});

describe('when the access token lifetime is over', () => {
  it('introspection answers {active:false}', async () => {
    // `exp` is whole seconds (RFC 7662): issued at second T plus a fraction, the token lives until T + 2, so
    // between 1 and 2 s. It is live at once and gone 2.1 s later, wherever in its second it was issued.
    const h = await startAuth('redis', { AUTH_ACCESS_TOKEN_LIFETIME_SECONDS: '2' });
    try {
      const token = (await passwordGrant(h)).body;
      expect(token.expires_in).toBe(2);
      expect((await introspect(h, token.access_token)).body.active).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 2100));
      expect((await introspect(h, token.access_token)).body).toEqual({ active: false });
    } finally {
      await h.stop();
    }
  });
});

describe('POST /oauth/revoke', () => {
  let h: Harness;
  let subscriber: Redis;
  let messages: unknown[];
  beforeEach(async () => {
    h = await startAuth('redis');
    messages = [];
    subscriber = new Redis(redisUrl());
    subscriber.on('message', (_channel: string, message: string) => messages.push(JSON.parse(message)));
    await subscriber.subscribe(h.channel);
  });
  afterEach(async () => {
    subscriber.disconnect();
    await h.stop();
  });
  const published = async (count: number) => {
    for (let i = 0; i < 50 && messages.length < count; i++) await new Promise((r) => setTimeout(r, 20));
    return messages;
  };

  it('when an access token is revoked, introspection turns inactive and its hash is published', async () => {
    const token = (await passwordGrant(h)).body;
    const answer = await revoke(h, token.access_token, { token_type_hint: 'access_token' });
    expect(answer.status).toBe(200);
    expect((await introspect(h, token.access_token)).body).toEqual({ active: false });
    expect(await published(1)).toEqual([
      {
        type: 'revocation',
        reason: 'revoked',
        access_token_sha256: [hashToken(token.access_token)],
        revoked_at: expect.any(Number),
      },
    ]);
    // The refresh token of the grant still works: only the access token was revoked.
    expect((await refreshGrant(h, token.refresh_token)).status).toBe(200);
  });

  it('when a refresh token is revoked, its whole family is revoked and announced', async () => {
    const first = (await passwordGrant(h)).body;
    const second = (await refreshGrant(h, first.refresh_token)).body;
    expect((await revoke(h, second.refresh_token)).status).toBe(200);
    expect((await introspect(h, first.access_token)).body.active).toBe(false);
    expect((await introspect(h, second.access_token)).body.active).toBe(false);
    expect((await refreshGrant(h, second.refresh_token)).body.error).toBe('invalid_grant');
    const [message] = (await published(1)) as { access_token_sha256: string[] }[];
    expect(message?.access_token_sha256.sort()).toEqual(
      [hashToken(first.access_token), hashToken(second.access_token)].sort(),
    );
  });

  it('when refresh token reuse revokes a family, the access token hashes are announced', async () => {
    const first = (await passwordGrant(h)).body;
    const second = (await refreshGrant(h, first.refresh_token)).body;
    await refreshGrant(h, first.refresh_token);
    const [message] = (await published(1)) as { reason: string; access_token_sha256: string[] }[];
    expect(message?.reason).toBe('refresh_token_reuse');
    expect(message?.access_token_sha256).toContain(hashToken(second.access_token));
  });

  it('when the token is unknown, it answers 200 anyway', async () => {
    expect((await revoke(h, 'never-issued')).status).toBe(200);
  });

  it('when another client revokes a token, it answers 200 and the token stays active', async () => {
    await h.accounts.upsertClient({ id: 'other', secret: 'other-secret' });
    const token = (await passwordGrant(h)).body;
    const answer = await postForm(
      `${h.url}/oauth/revoke`,
      { token: token.access_token },
      { Authorization: basic('other', 'other-secret') },
    );
    expect(answer.status).toBe(200);
    expect((await introspect(h, token.access_token)).body.active).toBe(true);
  });

  it('when the client is not authenticated, it answers 401 invalid_client', async () => {
    const answer = await postForm(
      `${h.url}/oauth/revoke`,
      { token: 'x' },
      { Authorization: basic(APP_CLIENT.id, 'bad') },
    );
    expect(answer.status).toBe(401);
    expect(answer.body.error).toBe('invalid_client');
    expect(answer.headers.get('www-authenticate')).toMatch(/^Basic/);
  });
});
