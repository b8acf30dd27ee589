import { randomUUID } from 'node:crypto';
import { stopService, waitForReady, type Stack } from '@spam-check/process-kit';
import { consoleStackForSuite, postSignIn } from './support/console-stack';

// The console's pages and sessions against the four services as processes, with real Redis
// (support/console-stack.ts): framing, policies, idle and absolute lifetimes, replicas, failed sign-ins.
describe('the operator console, in a browser, with Redis: pages and sessions', () => {
  const { admin, web, storedSession, anotherGateway, state } = consoleStackForSuite();
  let stack: Stack;
  let base: string;
  beforeAll(() => {
    ({ stack, base } = state);
  });

  it('has every page answer with a session only, unframeable and under a strict policy', async () => {
    for (const path of [
      '/console',
      '/console/clients',
      `/console/clients/${web.id}`,
      '/de/console/clients',
    ]) {
      const api = await fetch(`${stack.gateway}${path}`, {
        redirect: 'manual',
        headers: { accept: 'application/json' },
      });
      expect([path, api.status]).toEqual([path, path === '/console' ? 303 : 401]);
      const browserLike = await fetch(`${stack.gateway}${path}`, {
        redirect: 'manual',
        headers: { accept: 'text/html' },
      });
      expect(browserLike.status).toBe(303);
      for (const answer of [api, browserLike]) {
        expect(answer.headers.get('x-frame-options')).toBe('DENY');
        const policy = answer.headers.get('content-security-policy') ?? '';
        expect(policy).toContain("frame-ancestors 'none'");
        expect(policy).toContain("script-src 'self'");
        expect(policy).not.toContain('unsafe-inline');
        expect(policy).not.toContain('unsafe-eval');
      }
    }
    const posted = await fetch(`${base}/clients/${web.id}/settings`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: stack.gateway },
      body: 'mail.spam_threshold=0.2',
    });
    expect(posted.status).toBe(401);
    expect(await posted.json()).toMatchObject({ code: 'SESSION_REQUIRED' });
    // The chart library is served by the gateway itself, from node_modules.
    const uplot = await fetch(`${base}/assets/uPlot.iife.min.js`);
    expect(uplot.status).toBe(200);
    expect(await uplot.text()).toContain('uPlot');
  });

  it('ends a session after its idle time and after its absolute lifetime, whatever the traffic', async () => {
    const gateway = await anotherGateway({
      CONSOLE_SESSION_IDLE_SECONDS: '3',
      CONSOLE_SESSION_ABSOLUTE_SECONDS: '6',
      CONSOLE_SECURE_COOKIE: 'true',
    });
    try {
      await waitForReady(gateway, { timeoutMs: 30_000 });
      const signIn = async () => {
        const answer = await postSignIn(gateway.url, admin);
        expect(answer.status).toBe(303);
        expect(answer.headers.get('set-cookie')).toMatch(/; HttpOnly; SameSite=Strict; Secure$/);
        return (answer.headers.get('set-cookie') ?? '').split(';')[0] as string;
      };
      const open = (cookie: string) =>
        fetch(`${gateway.url}/console/clients`, {
          redirect: 'manual',
          headers: { cookie, accept: 'text/html' },
        });
      const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

      // Idle: a request within 3 s keeps it; 3.5 s of silence ends it.
      const idle = await signIn();
      await sleep(1000);
      expect((await open(idle)).status).toBe(200);
      await sleep(3500);
      const ended = await open(idle);
      expect([ended.status, ended.headers.get('location')]).toEqual([303, '/console/sign-in']);
      expect(ended.headers.get('set-cookie')).toMatch(/^console_session=; .*Max-Age=0/);

      // Absolute: a request every second keeps it from idling, yet it ends 6 s after sign-in.
      const busy = await signIn();
      const signedInAt = Date.now();
      const statuses: [number, number][] = [];
      while (Date.now() - signedInAt < 7500) {
        await sleep(1000);
        statuses.push([(Date.now() - signedInAt) / 1000, (await open(busy)).status]);
      }
      expect(statuses.filter(([second]) => second < 5.5).map(([, status]) => status)).not.toContain(303);
      expect(statuses.filter(([second]) => second > 6.5).map(([, status]) => status)).toEqual(
        expect.arrayContaining([303]),
      );
      expect(statuses.filter(([second]) => second > 6.5).map(([, status]) => status)).not.toContain(200);
    } finally {
      await stopService(gateway);
    }
  }, 60_000);

  it('keeps a session whose requests reach two replicas at once while its access token is refreshed', async () => {
    // A second gateway on the same Redis, as a second pod: the console's requests are spread over both. Every
    // console request here wants a refresh (access tokens live 50 s, under the 60 s margin), and auth ends
    // the whole grant family when a refresh token comes back a second time: two replicas refreshing with the
    // same token would sign the operator out.
    const second = await anotherGateway();
    try {
      await waitForReady(second, { timeoutMs: 30_000 });
      const signIn = await postSignIn(stack.gateway, admin);
      expect(signIn.status).toBe(303);
      const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] as string;
      const open = (gateway: string) =>
        fetch(`${gateway}/console/clients`, { redirect: 'manual', headers: { cookie, accept: 'text/html' } });
      const statuses: number[] = [];
      for (let round = 0; round < 4; round++)
        statuses.push(
          ...(await Promise.all(
            [stack.gateway, second.url, stack.gateway, second.url].map(
              async (gateway) => (await open(gateway)).status,
            ),
          )),
        );
      expect(statuses).toEqual(Array(16).fill(200));
      expect((await open(second.url)).status).toBe(200);
      expect((await open(stack.gateway)).status).toBe(200);
      // The session's tokens are the live ones: the admin API takes its access token.
      const stored = await storedSession(cookie.split('=')[1] as string);
      const call = await fetch(`${stack.gateway}/api/v1/admin/clients`, {
        headers: { authorization: `Bearer ${stored?.accessToken}` },
      });
      expect(call.status).toBe(200);
    } finally {
      await stopService(second);
    }
  }, 60_000);

  it("counts failed sign-ins against the browser's address at the auth service, as /oauth/token does", async () => {
    const attempt = (address: string) =>
      fetch(`${base}/sign-in`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin: stack.gateway,
          accept: 'text/html',
          'x-forwarded-for': address,
        },
        body: new URLSearchParams({ username: `guess-${randomUUID()}`, password: 'guess' }),
      });
    const statuses = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await attempt('203.0.113.7')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    const throttled = await attempt('203.0.113.7');
    expect(await throttled.text()).toContain('Too many failed sign-ins');
    expect((await attempt('198.51.100.9')).status).toBe(401);
  });
});
