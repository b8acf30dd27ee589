import { ALICE, passwordGrant, startAuth, type Harness } from './harness';

const LIMITS = {
  AUTH_LOGIN_MAX_FAILURES_PER_USER: '3',
  AUTH_LOGIN_MAX_FAILURES_PER_IP: '5',
  AUTH_LOGIN_FAILURE_WINDOW_SECONDS: '120',
};

describe('brute-force protection of the password grant', () => {
  let h: Harness;
  afterEach(async () => {
    await h.stop();
  });

  it('when a username reaches its failure limit, even the right password gets 429 with Retry-After', async () => {
    h = await startAuth('redis', LIMITS);
    for (let i = 0; i < 3; i++)
      expect((await passwordGrant(h, { username: ALICE.username, password: `wrong${i}` })).status).toBe(400);
    const refused = await passwordGrant(h);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(120);
    // RFC 6749 §5.2 has no throttling code: invalid_request, with the status and Retry-After saying why.
    expect(refused.body).toEqual({
      error: 'invalid_request',
      error_description: expect.stringMatching(/Too many/),
    });
  });

  it('when the username does not exist, it is refused the same way (existence is not revealed)', async () => {
    h = await startAuth('redis', LIMITS);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await passwordGrant(h, { username: 'ghost', password: 'x' }));
    expect(answers.map((a) => a.status)).toEqual([400, 400, 400, 429]);
    expect(answers[0]!.body).toEqual((await Promise.resolve(answers[1]!)).body);
  });

  it('when one client IP fails for many usernames, that IP is refused', async () => {
    h = await startAuth('redis', LIMITS);
    const from = { 'X-Forwarded-For': '203.0.113.7' };
    for (let i = 0; i < 5; i++)
      expect((await passwordGrant(h, { username: `user${i}`, password: 'x' }, {}, from)).status).toBe(400);
    expect((await passwordGrant(h, ALICE, {}, from)).status).toBe(429);
    // Another client IP behind the same (trusted) proxy is not affected.
    expect((await passwordGrant(h, ALICE, {}, { 'X-Forwarded-For': '203.0.113.8' })).status).toBe(200);
  });

  it('when no proxy hop is trusted, X-Forwarded-For is ignored and the socket address is counted', async () => {
    h = await startAuth('redis', { ...LIMITS, AUTH_TRUSTED_PROXY_HOPS: '0' });
    for (let i = 0; i < 5; i++)
      await passwordGrant(
        h,
        { username: `user${i}`, password: 'x' },
        {},
        { 'X-Forwarded-For': `198.51.100.${i}` },
      );
    expect((await passwordGrant(h, ALICE, {}, { 'X-Forwarded-For': '198.51.100.99' })).status).toBe(429);
  });

  it('when a client writes its own X-Forwarded-For entries, only the one the trusted hop appended counts', async () => {
    h = await startAuth('redis', LIMITS);
    for (let i = 0; i < 5; i++)
      await passwordGrant(
        h,
        { username: `user${i}`, password: 'x' },
        {},
        { 'X-Forwarded-For': `203.0.113.${i}, 198.51.100.20` },
      );
    const spoofed = await passwordGrant(h, ALICE, {}, { 'X-Forwarded-For': '203.0.113.77, 198.51.100.20' });
    expect(spoofed.status).toBe(429);
  });

  it('when a login succeeds, the username counter starts again', async () => {
    h = await startAuth('redis', LIMITS);
    for (let i = 0; i < 2; i++) await passwordGrant(h, { username: ALICE.username, password: 'wrong' });
    expect((await passwordGrant(h)).status).toBe(200);
    for (let i = 0; i < 2; i++) await passwordGrant(h, { username: ALICE.username, password: 'wrong' });
    expect((await passwordGrant(h)).status).toBe(200);
  });
});

describe.each(['redis', 'memory'] as const)('brute-force limits under a burst (%s store)', (kind) => {
  let h: Harness;
  afterEach(async () => {
    await h.stop();
  });

  it('when 100 wrong passwords for one user arrive at once, only the limit of them is checked', async () => {
    h = await startAuth(kind, { ...LIMITS, AUTH_LOGIN_MAX_FAILURES_PER_USER: '5' });
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        passwordGrant(
          h,
          { username: ALICE.username, password: `wrong${i}` },
          {},
          { 'X-Forwarded-For': `198.51.100.${i}` },
        ),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 400)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(95);
    expect((await passwordGrant(h)).status).toBe(429);
  });

  it('when 100 wrong passwords for different users arrive at once from one IP, only the IP limit is checked', async () => {
    h = await startAuth(kind, LIMITS);
    const from = { 'X-Forwarded-For': '203.0.113.9' };
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        passwordGrant(h, { username: `user${i}`, password: 'x' }, {}, from),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 400)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(95);
  });
});
