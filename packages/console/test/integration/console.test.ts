import type { Stack } from '@spam-check/process-kit';
import type { Redis } from 'ioredis';
import { collectProblems } from '@spam-check/test-support';
import type { Browser, Page } from 'playwright-core';
import { recordResponses, screenshot, sessionCookie, signInWithKeyboard, submit } from './support/browser';
import { consoleStackForSuite, json, postSignIn } from './support/console-stack';

const HAM_TEXT = {
  title: 'Lovely walk by the lake',
  body: 'Thank you for the photos of the lake, we walked there on Sunday with the children.',
};

// The operator console in Debian's Chromium against the four services as processes, with real Redis
// (support/console-stack.ts): sessions, statistics, feedback and settings are the real ones.
describe('the operator console, in a browser, with Redis', () => {
  const { run, consoleClient, admin, web, user, authPrefix, apiToken, check, storedSession, state } =
    consoleStackForSuite();
  let stack: Stack;
  let redis: Redis;
  let browser: Browser;
  let base: string;
  beforeAll(() => {
    ({ stack, redis, browser, base } = state);
  });
  let page: Page;
  const verdictOf = async () =>
    (await page.locator('#try-result [data-verdict]').getAttribute('data-verdict')) ?? '';

  it('walks through sign-in, charts of real checks, feedback, settings, try it and sign-out, and no secret reaches the browser', async () => {
    const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
    page = await context.newPage();
    const recorded = recordResponses(page);
    const problems = collectProblems(page);

    // Real traffic of the web client through the public API, and one feedback report.
    const token = await apiToken();
    const mail = await check(token, 'mail', { email: 'someone@mailinator.com' });
    expect(mail.status).toBe(200);
    for (const email of ['anna.schmidt@gmx.de', 'jo@example.org'])
      expect((await check(token, 'mail', { email })).status).toBe(200);
    expect((await check(token, 'text', HAM_TEXT)).status).toBe(200);
    const feedback = await json(`${stack.gateway}/api/v1/spam/feedback`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ check_id: mail.body.id, label: 'spam' }),
    });
    expect(feedback.status).toBe(200);

    // Without a session: the sign-in page.
    await page.goto(`${base}/clients`);
    expect(new URL(page.url()).pathname).toBe('/console/sign-in');
    await screenshot(page, 'console-sign-in');

    // A wrong password is refused with a message; then the right one, with the keyboard alone.
    await signInWithKeyboard(page, admin.username, 'wrong password');
    await expect(page.locator('p.error[role=alert]').textContent()).resolves.toContain('Wrong user name');
    await page.fill('#password', '');
    await page.focus('#username');
    await page.fill('#username', '');
    await signInWithKeyboard(page, admin.username, admin.password);
    expect(new URL(page.url()).pathname).toBe('/console/clients');
    await expect(page.locator(`a[href="/console/clients/${web.id}"]`).count()).resolves.toBe(1);
    await screenshot(page, 'console-clients');

    // The client's page: the chart and totals hold the checks above (counted after their answers, so wait).
    let totals = '';
    for (let i = 0; i < 50 && !/E-mail\s*2\s*0\s*1/.test(totals); i += 1) {
      await page.goto(`${base}/clients/${web.id}`);
      totals = (await page.locator('#totals').innerText()).replace(/\s+/g, ' ');
    }
    expect(totals).toMatch(/E-mail 2 0 1/);
    expect(totals).toMatch(/Text 1 0 0/);
    await page.waitForSelector('#chart canvas');
    const series = JSON.parse((await page.locator('#chart-data').textContent()) ?? '{}') as Record<
      'ham' | 'spam',
      number[]
    >;
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    expect(sum(series.ham)).toBe(3);
    expect(sum(series.spam)).toBe(1);
    // The same figures as a table, for screen readers and keyboards (today's row: 3 ham, 0 suspicious, 1 spam).
    const today = await page.locator('#series tbody tr').last().locator('td').allTextContents();
    expect(today).toEqual(['3', '0', '1']);
    await expect(page.locator('#top-reasons').innerText()).resolves.toContain('EMAIL_DISPOSABLE_DOMAIN');
    await expect(page.locator('#feedback').innerText()).resolves.toContain(mail.body.id);
    await screenshot(page, 'console-client', { fullPage: false });

    // Try it: a harmless text is ham for this client...
    await page.selectOption('#t-kind', 'text');
    await page.fill('#t-title', HAM_TEXT.title);
    await page.fill('#t-body', HAM_TEXT.body);
    await submit(page, '#try-form button[type=submit]');
    expect(await verdictOf()).toBe('ham');
    await expect(page.locator('#try-result').innerText()).resolves.toMatch(/TEXT_/);

    // ...a bad threshold is refused with the API's message next to the field, and nothing is stored...
    await page.fill('#s-text-spam_threshold', '1.5');
    await submit(page, '#settings-form button[type=submit]');
    await expect(page.locator('#s-text-spam_threshold-error').innerText()).resolves.toMatch(/1/);
    await expect(page.locator('#s-text-spam_threshold').getAttribute('aria-invalid')).resolves.toBe('true');
    await screenshot(page, 'console-settings-error', { section: '#settings' });
    expect(await redis.get(`spam-check:client-settings:${web.id}`)).toBeNull();

    // ...a threshold of 0 is saved, and the same text now comes back spam.
    await page.fill('#s-text-spam_threshold', '0');
    await page.fill('#s-text-suspicious_threshold', '0');
    await page.fill('#s-mail-deny', ' spam.example \n\nx@junk.example');
    await page.selectOption('#s-campaigns-protect', 'true');
    await page.fill('#s-text_rules-allowed_languages', 'de, fr');
    await page.fill('#s-text_rules-max_links', '3');
    await submit(page, '#settings-form button[type=submit]');
    await page.waitForSelector('p.ok[role=status]');
    await expect(page.locator('#s-text-spam_threshold').inputValue()).resolves.toBe('0');
    await expect(page.locator('#s-mail-deny').inputValue()).resolves.toBe('spam.example\nx@junk.example');
    expect(JSON.parse((await redis.get(`spam-check:client-settings:${web.id}`)) ?? '{}')).toEqual({
      mail: { deny: ['spam.example', 'x@junk.example'] },
      text: { spam_threshold: 0, suspicious_threshold: 0 },
      campaigns: { protect: true },
      text_rules: { allowed_languages: ['de', 'fr'], max_links: 3 },
    });
    await expect(page.locator('#s-campaigns-protect').inputValue()).resolves.toBe('true');
    await expect(page.locator('#s-text_rules-allowed_languages').inputValue()).resolves.toBe('de, fr');
    await page.fill('#t-title', HAM_TEXT.title);
    await page.fill('#t-body', HAM_TEXT.body);
    await submit(page, '#try-form button[type=submit]');
    expect(await verdictOf()).toBe('spam');
    await screenshot(page, 'console-try-it', { section: '#try' });

    // The access token is refreshed (rotated) as it nears its expiry, without the operator noticing.
    const before = await storedSession((await sessionCookie(page)) as string);
    await page.reload();
    const after = await storedSession((await sessionCookie(page)) as string);
    expect(after?.refreshToken).not.toBe(before?.refreshToken);
    expect(after?.accessToken).not.toBe(before?.accessToken);
    await expect(page.locator('#h-traffic').count()).resolves.toBe(1);

    // German, through the prefix; readable at a phone's width (nothing wider than the screen).
    await page.goto(`${stack.gateway}/de/console/clients/${web.id}`);
    await expect(page.locator('#h-traffic').innerText()).resolves.toBe('Verkehr und Urteile');
    await page.setViewportSize({ width: 375, height: 800 });
    await page.reload();
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    await screenshot(page, 'console-phone', { fullPage: false });
    // Keyboard: the first Tab lands on the skip link, which shows a visible focus outline.
    await page.keyboard.press('Tab');
    expect(await page.evaluate<string>('document.activeElement.className')).toBe('skip');
    expect(await page.evaluate<string>('getComputedStyle(document.activeElement).outlineStyle')).not.toBe(
      'none',
    );

    // Sign out: the session and its tokens are gone; the old cookie no longer opens anything.
    const cookie = (await sessionCookie(page)) as string;
    const session = await storedSession(cookie);
    expect(session?.accessToken).toEqual(expect.any(String));
    await submit(page, 'form.sign-out button');
    expect(new URL(page.url()).pathname).toBe('/de/console/sign-in');
    expect(await sessionCookie(page)).toBeUndefined();
    expect(await storedSession(cookie)).toBeUndefined();
    const replay = await fetch(`${base}/clients`, {
      headers: { cookie: `console_session=${cookie}` },
      redirect: 'manual',
    });
    expect(replay.status).toBe(401);
    const revoked = await fetch(`${stack.gateway}/api/v1/admin/clients`, {
      headers: { authorization: `Bearer ${session?.accessToken}` },
    });
    expect(revoked.status).toBe(401);

    // Nothing the browser received holds a token, a secret or a hash of the auth service.
    await recorded.settled();
    const everything = recorded.texts.join('\n');
    expect(recorded.texts.length).toBeGreaterThan(15);
    const records = await Promise.all(
      [
        `client:${consoleClient.id}`,
        `client:${web.id}`,
        `user:${admin.username}`,
        `user:${user.username}`,
      ].map(
        async (key) => JSON.parse((await redis.get(`${authPrefix}${key}`)) ?? '{}') as Record<string, string>,
      ),
    );
    const hashes = records.flatMap((record) => [record.secretHash, record.passwordHash]).filter(Boolean);
    expect(hashes.length).toBe(4);
    const secrets = [
      session?.accessToken,
      session?.refreshToken,
      consoleClient.secret,
      admin.password,
      ...hashes,
    ] as string[];
    for (const secret of secrets) expect(everything.includes(secret)).toBe(false);
    expect(problems).toEqual([]);
    await context.close();
  }, 180_000);

  it('refuses changes without the session token or from another origin, and leaves nothing behind', async () => {
    const signIn = await postSignIn(stack.gateway, admin, {
      origin: stack.gateway.replace('127.0.0.1', 'localhost'),
    });
    expect(signIn.status).toBe(403);
    expect(signIn.headers.get('set-cookie')).toBeNull();

    const good = await postSignIn(stack.gateway, admin);
    expect(good.status).toBe(303);
    const setCookie = good.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^console_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict$/);
    const first = setCookie.split(';')[0] as string;
    // A new sign-in from a browser that still holds a session ends that session and revokes its tokens.
    const stale = await storedSession(first.split('=')[1] as string);
    const again = await postSignIn(stack.gateway, admin, { cookie: first });
    expect(again.status).toBe(303);
    const cookie = (again.headers.get('set-cookie') ?? '').split(';')[0] as string;
    expect(cookie).not.toBe(first);
    expect(await storedSession(first.split('=')[1] as string)).toBeUndefined();
    const staleCall = await fetch(`${stack.gateway}/api/v1/admin/clients`, {
      headers: { authorization: `Bearer ${stale?.accessToken}` },
    });
    expect(staleCall.status).toBe(401);
    expect((await fetch(`${base}/clients`, { headers: { cookie: first } })).status).toBe(401);
    const csrf = (await storedSession(cookie.split('=')[1] as string))?.csrf as string;
    const put = (headers: Record<string, string>, form: Record<string, string>) =>
      fetch(`${base}/clients/${web.id}/settings`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, ...headers },
        body: new URLSearchParams({ 'mail.spam_threshold': '0.1', ...form }),
      });
    const before = await redis.get(`spam-check:client-settings:${web.id}`);
    for (const [headers, form] of [
      [{ origin: stack.gateway }, {}],
      [{ origin: stack.gateway }, { csrf: 'x'.repeat(43) }],
      [{}, { csrf }],
      [{ origin: 'http://evil.example' }, { csrf }],
    ] as const) {
      const refused = await put(headers, form);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ code: 'CSRF_REJECTED' });
    }
    expect(await redis.get(`spam-check:client-settings:${web.id}`)).toBe(before);

    // Bad input to console endpoints: clear 4xx problems.
    const badId = await fetch(`${base}/clients/${'x'.repeat(101)}`, { headers: { cookie } });
    expect(badId.status).toBe(400);
    const badInterval = await fetch(`${base}/clients/${web.id}?interval=week`, { headers: { cookie } });
    expect(badInterval.status).toBe(400);
    const unknown = await fetch(`${base}/clients/nobody-${run}`, {
      headers: { cookie, accept: 'text/html' },
    });
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('Client not found');
    const badKind = await fetch(`${base}/clients/${web.id}/try`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin: stack.gateway },
      body: new URLSearchParams({ csrf, kind: 'video' }),
    });
    expect(badKind.status).toBe(400);
    expect(await badKind.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    const tooLarge = await fetch(`${base}/clients/${web.id}/settings`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin: stack.gateway },
      body: new URLSearchParams({ csrf, 'text.deny_terms': 'x'.repeat(300_000) }),
    });
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    const manyFields = await fetch(`${base}/clients/${web.id}/settings`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin: stack.gateway },
      body: Array.from({ length: 60 }, (_, i) => `f${i}=1`).join('&'),
    });
    expect(manyFields.status).toBe(413);
    const repeated = await fetch(`${base}/clients/${web.id}/settings`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin: stack.gateway },
      body: `csrf=${csrf}&mail.spam_threshold=0.1&mail.spam_threshold=0.2`,
    });
    expect(repeated.status).toBe(400);
    expect(await repeated.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [expect.objectContaining({ path: 'mail.spam_threshold' })],
    });
    expect(await redis.get(`spam-check:client-settings:${web.id}`)).toBe(before);
    const wrongLanguage = await fetch(`${stack.gateway}/it/console/clients`, { headers: { cookie } });
    expect(wrongLanguage.status).toBe(404);
  });
});
