import { startStack, stopService, type Stack, SELF_CONTAINED_ENV } from '@spam-check/process-kit';
import { collectProblems, launchBrowser } from '@spam-check/test-support';
import type { Browser } from 'playwright-core';
import { sessionCookie, signInWithKeyboard, submit } from './support/browser';
import { postSignIn } from './support/console-stack';

// Embedded mode (`pnpm start`: no Redis): sessions in the gateway's memory, the demo admin client and user.
describe('the operator console in embedded mode', () => {
  let stack: Stack;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startStack(
      {
        ...SELF_CONTAINED_ENV,
        TEXT_LLM_MODE: 'never',
        // A sign-in verifies two scrypt hashes: at the default cost a loaded machine takes longer than
        // AUTH_TIMEOUT_MS for them (the sign-in page came back, under a load average of 35).
        AUTH_SCRYPT_COST: '1024',
      },
      { readyTimeoutMs: 60_000 },
    );
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('signs in with the demo admin, runs a check in try it, signs out, and the old cookie is refused', async () => {
    const page = await browser.newPage();
    const problems = collectProblems(page);
    await page.goto(`${stack.gateway}/fr/console`);
    expect(new URL(page.url()).pathname).toBe('/fr/console/sign-in');
    await signInWithKeyboard(page, 'admin', 'admin-password');
    expect(new URL(page.url()).pathname).toBe('/fr/console/clients');
    // Which LLM endpoint texts go to (docs/privacy.md): none here, the stage is off.
    await expect(page.locator('#llm-endpoint').innerText()).resolves.toContain('désactivée');

    await page.goto(`${stack.gateway}/fr/console/clients/demo-client`);
    // What lives in Redis says so; try it works without it.
    await expect(page.locator('#h-traffic + p.note').innerText()).resolves.toContain('REDIS_URL');
    await page.selectOption('#t-kind', 'mail');
    await page.fill('#t-email', 'someone@mailinator.com');
    await submit(page, '#try-form button[type=submit]');
    await expect(page.locator('#try-result [data-verdict]').getAttribute('data-verdict')).resolves.toBe(
      'spam',
    );
    await expect(page.locator('#try-result').innerText()).resolves.toContain('EMAIL_DISPOSABLE_DOMAIN');

    // A hybrid check: the reasons of both parts.
    await page.selectOption('#t-kind', 'hybrid');
    await page.fill('#t-email', 'anna.schmidt@gmx.de');
    await page.fill('#t-title', 'Merci');
    await page.fill('#t-body', 'Merci pour cet article, très utile pour notre association.');
    await submit(page, '#try-form button[type=submit]');
    const reasons = await page.locator('#try-result').innerText();
    expect(reasons).toContain('EMAIL_FREE_PROVIDER');
    expect(reasons).toMatch(/TEXT_/);
    // The language switch of a form's answer leads to the client's page in that language.
    await expect(page.locator('a[hreflang=de]').getAttribute('href')).resolves.toBe(
      '/de/console/clients/demo-client',
    );
    // A field over its limit: the message at the field, 400.
    await page.selectOption('#t-kind', 'mail');
    await page.fill('#t-email', `${'a'.repeat(1100)}@example.org`);
    const [tooLong] = await Promise.all([
      page.waitForNavigation(),
      page.click('#try-form button[type=submit]'),
    ]);
    expect(tooLong?.status()).toBe(400);
    await expect(page.locator('#t-email-error').count()).resolves.toBe(1);

    const cookie = await sessionCookie(page);
    await submit(page, 'form.sign-out button');
    expect(new URL(page.url()).pathname).toBe('/fr/console/sign-in');
    const replay = await fetch(`${stack.gateway}/console/clients`, {
      headers: { cookie: `console_session=${cookie}`, accept: 'text/html' },
      redirect: 'manual',
    });
    expect(replay.status).toBe(303);
    expect(replay.headers.get('location')).toBe('/console/sign-in');
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('answers a 503 page, never a crash, when the auth service is down', async () => {
    const signIn = () =>
      postSignIn(stack.gateway, { username: 'admin', password: 'admin-password' }, { accept: 'text/html' });
    const signedIn = await signIn();
    expect(signedIn.status).toBe(303);
    const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0] as string;

    await stopService(stack.services.auth);
    const refused = await signIn();
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await refused.text()).toContain('Service unavailable');
    // A page of a live session needs the admin API, which needs auth: 503 too.
    const page = await fetch(`${stack.gateway}/console/clients`, {
      headers: { cookie, accept: 'text/html' },
    });
    expect(page.status).toBe(503);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    // The gateway is still up and answering.
    expect((await fetch(`${stack.gateway}/livez`)).status).toBe(200);
  }, 60_000);
});
