import {
  feedbackResultSchema,
  hybridResultSchema,
  mailBatchResultSchema,
  mailResultSchema,
  textBatchResultSchema,
  textResultSchema,
} from '@spam-check/contracts';
import { startStack, type Stack } from '@spam-check/process-kit';
import { launchBrowser, screenshotPath } from '@spam-check/test-support';

type Browser = Awaited<ReturnType<typeof launchBrowser>>;
type Page = Awaited<ReturnType<Browser['newPage']>>;

// `/docs` as a person uses it: the real stack (embedded, as `pnpm start` runs it), Debian's Chromium, the
// demo credentials typed into Swagger UI's "Authorize" dialog, and "try it" on the checks. Every request the
// page makes is recorded; any that is not for the gateway is refused and fails the suite, so the page is
// shown to work with no other host (no CDN, no fonts, no telemetry), as on a machine without internet.
describe('the API reference at /docs, in a real browser', () => {
  let stack: Stack;
  let browser: Browser;
  let context: Awaited<ReturnType<Browser['newContext']>>;
  let page: Page;
  const foreignRequests: string[] = [];
  const policyViolations: string[] = [];

  beforeAll(async () => {
    // One after the other: with both at once, a browser that fails to start left the stack running unstopped.
    stack = await startStack(
      { REDIS_URL: undefined, AMQP_URL: undefined, OPENAI_API_KEY: undefined, EMAIL_DNS_CHECK: 'off' },
      { readyTimeoutMs: 60_000 },
    );
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    // Below jest's own 30 s, so that a step that does not happen fails with what it was waiting for.
    context.setDefaultTimeout(10_000);
    const origin = new URL(stack.gateway).origin;
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (new URL(url).origin === origin) return route.continue();
      foreignRequests.push(url);
      return route.abort('internetdisconnected');
    });
    context.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) policyViolations.push(message.text());
    });
    page = await context.newPage();
    await page.goto(`${stack.gateway}/docs`);
    await page.locator('.opblock').first().waitFor({ timeout: 30_000 });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  /**
   * Expands the operation, puts `body` in its editor (else keeps the document's example), runs it and returns
   * what the page shows.
   */
  async function tryIt(path: string, body?: unknown) {
    const operation = page.locator(`.opblock:has(.opblock-summary-path[data-path="${path}"])`);
    if (!(await operation.locator('.opblock-body').isVisible())) {
      await operation.locator('.opblock-summary').first().click();
    }
    const editor = operation.locator('textarea.body-param__text');
    if (body === undefined) expect(JSON.parse(await editor.inputValue())).toBeDefined();
    else await editor.fill(JSON.stringify(body, null, 2));
    const [answer] = await Promise.all([
      page.waitForResponse((response) => new URL(response.url()).pathname === path),
      operation.locator('button.execute').click(),
    ]);
    const live = operation.locator('.live-responses-table .response');
    await live.first().waitFor();
    const shownStatus = (await live.locator('.response-col_status').first().innerText()).trim();
    const shownBody = await live.locator('.response-col_description pre.microlight').first().innerText();
    return {
      operation,
      request: answer.request(),
      status: answer.status(),
      shownStatus,
      shown: JSON.parse(shownBody) as unknown,
    };
  }

  function expectShown<T>(
    result: Awaited<ReturnType<typeof tryIt>>,
    schema: { parse: (value: unknown) => T },
  ): T {
    expect(result.status).toBe(200);
    expect(result.shownStatus).toBe('200');
    expect(result.request.headers().authorization).toMatch(/^Bearer [A-Za-z0-9_-]{43,}$/);
    return schema.parse(result.shown);
  }

  it('serves the page and its assets from the gateway with a strict policy', async () => {
    const response = await page.request.get(`${stack.gateway}/docs`);
    expect(response.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers()['x-content-type-options']).toBe('nosniff');
    expect(await page.locator('.info .title').innerText()).toContain('Spam check API');
  });

  it('when the demo credentials are typed into "Authorize", Swagger UI gets a token with the password grant', async () => {
    await page.locator('.auth-wrapper button.authorize').click();
    // The dialog offers both flows of the scheme; this is the user's.
    const dialog = page.locator('.modal-ux .auth-container', { hasText: /Flow:\s*password/ });
    await dialog.locator('#oauth_username').fill('demo');
    await dialog.locator('#oauth_password').fill('demo-password');
    await dialog.locator('#client_id_password').fill('demo-client');
    await dialog.locator('#client_secret_password').fill('demo-secret');
    await dialog.locator('label[for="spam:check-password-checkbox-oauth2"]').click();
    const [tokenAnswer] = await Promise.all([
      page.waitForResponse((response) => new URL(response.url()).pathname === '/oauth/token'),
      dialog.locator('.auth-btn-wrapper button.authorize').click(),
    ]);
    const tokenRequest = tokenAnswer.request();
    expect(tokenRequest.method()).toBe('POST');
    expect(tokenRequest.headers()['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(tokenRequest.headers().authorization).toBe(
      `Basic ${Buffer.from('demo-client:demo-secret').toString('base64')}`,
    );
    const form = new URLSearchParams(tokenRequest.postData() ?? '');
    expect(Object.fromEntries(form)).toMatchObject({
      grant_type: 'password',
      username: 'demo',
      password: 'demo-password',
      scope: 'spam:check',
    });
    expect(tokenAnswer.status()).toBe(200);
    await dialog.locator('button[aria-label="Remove authorization"]').waitFor();
    await page.locator('.modal-ux button.btn-done').first().click();
    await page.locator('.auth-wrapper button.authorize.locked').waitFor();
  });

  it('when only the demo client is typed into "Authorize", Swagger UI gets a token with the client_credentials grant', async () => {
    const other = await context.newPage();
    await other.goto(`${stack.gateway}/docs`);
    await other.locator('.opblock').first().waitFor({ timeout: 30_000 });
    await other.locator('.auth-wrapper button.authorize').click();
    const dialog = other.locator('.modal-ux');
    const flow = dialog.locator('.auth-container', { hasText: /Flow:\s*clientCredentials/ });
    await flow.locator('input[id^="client_id_"]').fill('demo-client');
    await flow.locator('input[id^="client_secret_"]').fill('demo-secret');
    await flow.locator('label[for^="spam:check-"]').click();
    const [tokenAnswer] = await Promise.all([
      other.waitForResponse((response) => new URL(response.url()).pathname === '/oauth/token'),
      flow.locator('.auth-btn-wrapper button.authorize').click(),
    ]);
    const form = new URLSearchParams(tokenAnswer.request().postData() ?? '');
    expect(form.get('grant_type')).toBe('client_credentials');
    expect(tokenAnswer.status()).toBe(200);
    await other.close();
  });

  it('"try it" with the examples shows a spam verdict on the mail check (a fixture) and ham on the text check', async () => {
    const mail = await tryIt('/api/v1/spam/mail');
    const mailResult = expectShown(mail, mailResultSchema);
    expect(mailResult).toMatchObject({ spam: true, verdict: 'spam' });
    expect(mailResult.reasons.map((reason) => reason.code)).toContain('EMAIL_TEST_FIXTURE');

    await mail.operation.locator('.live-responses-table').scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath('docs') });

    const text = await tryIt('/api/v1/spam/text');
    const textResult = expectShown(text, textResultSchema);
    expect(textResult).toMatchObject({ spam: false, verdict: 'ham', engine: 'rules' });
  }, 60_000);

  it('"try it" runs the hybrid, batch and feedback checks too, the report on the hybrid check shown', async () => {
    const hybrid = await tryIt('/api/v1/spam/hybrid-check', {
      email: 'ham@spam-check.test',
      title: 'Offer',
      body: 'Cheap watches, spam-check-test-spam',
    });
    const hybridResult = expectShown(hybrid, hybridResultSchema);
    expect(hybridResult).toMatchObject({ verdict: 'spam', mode: 'parallel' });

    const mails = await tryIt('/api/v1/spam/mail/batch');
    expect(expectShown(mails, mailBatchResultSchema).summary).toEqual({ ham: 1, suspicious: 1, spam: 1 });

    const texts = await tryIt('/api/v1/spam/text/batch');
    expect(expectShown(texts, textBatchResultSchema).summary).toEqual({ ham: 1, suspicious: 0, spam: 1 });

    const feedback = await tryIt('/api/v1/spam/feedback', { check_id: hybridResult.id, label: 'ham' });
    expect(expectShown(feedback, feedbackResultSchema)).toMatchObject({
      check_id: hybridResult.id,
      label: 'ham',
      applied_to: ['email', 'text'],
    });
  }, 60_000);

  it("when opened at a problem's type URI, it shows that error's row once Swagger UI has drawn the operations", async () => {
    const linked = await context.newPage();
    await linked.goto(`${stack.gateway}/docs#error-RATE_LIMITED`);
    await linked.locator('.opblock').first().waitFor();
    // A string, evaluated in the page: this project compiles without the DOM's types.
    await linked.waitForFunction(
      "(() => { const row = document.getElementById('error-RATE_LIMITED').getBoundingClientRect();" +
        ' return row.top >= 0 && row.bottom <= window.innerHeight; })()',
    );
    expect(await linked.locator('#error-RATE_LIMITED').innerText()).toContain('429');
    await linked.close();
  });

  it('asked no host but the gateway, and broke no rule of its Content-Security-Policy', () => {
    expect(foreignRequests).toEqual([]);
    expect(policyViolations).toEqual([]);
  });
});
