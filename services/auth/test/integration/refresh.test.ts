import { introspect, passwordGrant, refreshGrant, authForEachTest, json } from './harness';

describe.each(['redis', 'memory'] as const)('refresh_token grant with rotation (%s store)', (kind) => {
  const h = authForEachTest(kind);

  it('when a refresh token is used, it issues a new pair and the old refresh token is spent', async () => {
    const first = (await passwordGrant(h)).body;
    const second = await refreshGrant(h, first.refresh_token);
    expect(second.status).toBe(200);
    expect(second.headers.get('cache-control')).toBe('no-store');
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    expect(second.body.access_token).not.toBe(first.access_token);
    expect(second.body.scope).toBe('spam:check');
    expect((await introspect(h, second.body.access_token)).body.active).toBe(true);
  });

  it('when the refresh token was already used, it answers invalid_grant and revokes the whole family', async () => {
    const first = (await passwordGrant(h)).body;
    const second = (await refreshGrant(h, first.refresh_token)).body;
    const third = (await refreshGrant(h, second.refresh_token)).body;
    const other = (await passwordGrant(h)).body;

    const replay = await refreshGrant(h, first.refresh_token);

    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    for (const access of [first.access_token, second.access_token, third.access_token])
      expect((await introspect(h, access)).body).toEqual({ active: false });
    expect((await refreshGrant(h, third.refresh_token)).body.error).toBe('invalid_grant');
    // Another grant of the same user and client is a different family and stays valid.
    expect((await introspect(h, other.access_token)).body.active).toBe(true);
    expect((await refreshGrant(h, other.refresh_token)).status).toBe(200);
  });

  it('when a refresh asks for a wider scope, it fails with invalid_scope and does not consume the token', async () => {
    const first = (await passwordGrant(h)).body;
    const wider = await refreshGrant(h, first.refresh_token, { scope: 'spam:check spam:extra' });
    expect(wider.status).toBe(400);
    expect(wider.body.error).toBe('invalid_scope');
    const retry = await refreshGrant(h, first.refresh_token);
    expect(retry.status).toBe(200);
  });

  it('when a refresh asks for a narrower scope, it grants that scope', async () => {
    const first = (await passwordGrant(h, undefined, { scope: 'spam:check spam:extra' })).body;
    const narrower = await refreshGrant(h, first.refresh_token, { scope: 'spam:extra' });
    expect(narrower.status).toBe(200);
    expect(narrower.body.scope).toBe('spam:extra');
  });

  it('when the refresh token belongs to another client, it answers invalid_grant and keeps it usable', async () => {
    await h.accounts.upsertClient({ id: 'other', secret: 'other-secret' });
    const first = (await passwordGrant(h)).body;
    const stolen = await fetch(`${h.url}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: first.refresh_token,
        client_id: 'other',
        client_secret: 'other-secret',
      }).toString(),
    });
    expect(stolen.status).toBe(400);
    expect((await json(stolen)).error).toBe('invalid_grant');
    expect((await refreshGrant(h, first.refresh_token)).status).toBe(200);
  });

  it('when the refresh token is unknown, it answers invalid_grant', async () => {
    const answer = await refreshGrant(h, 'not-a-token');
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('invalid_grant');
  });

  it('when 20 refreshes of one token run in parallel, exactly one succeeds', async () => {
    const first = (await passwordGrant(h)).body;
    const answers = await Promise.all(Array.from({ length: 20 }, () => refreshGrant(h, first.refresh_token)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 400)).toHaveLength(19);
    expect(answers.filter((a) => a.status === 400).every((a) => a.body.error === 'invalid_grant')).toBe(true);
  });
});
