import { collectProblems, launchBrowser } from '@spam-check/test-support';
import { startReceiver, startWebhookStack, verified, waitFor } from './support/webhooks';

type Browser = Awaited<ReturnType<typeof launchBrowser>>;
type Page = Awaited<ReturnType<Browser['newPage']>>;

/** Clicks a submit button and waits for the page the form leads to. */
async function submit(page: Page, selector: string): Promise<void> {
  await Promise.all([page.waitForNavigation(), page.click(selector)]);
}

// The console's webhook page in Debian's Chromium, over a gateway with Redis and the in-memory queue.
describe('webhooks in the operator console', () => {
  let stack: Awaited<ReturnType<typeof startWebhookStack>>;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    stack = await startWebhookStack();
    base = (await stack.gateway({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_BASE_MS: '50' })).url;
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('when a webhook is added, its secret is shown once; a test event is delivered and listed; saving settings keeps it', async () => {
    const admin = await stack.admin(base);
    const site = await admin.site();
    const receiver = await startReceiver(() => 200);
    const page = await browser.newPage();
    const problems = collectProblems(page);
    await page.goto(`${base}/en/console/sign-in`);
    await page.fill('#username', 'admin');
    await page.fill('#password', 'admin-password');
    await submit(page, 'form[action$="/sign-in"] button[type=submit]');
    await page.goto(`${base}/en/console/clients/${site.id}`);
    await submit(page, '#webhooks-link');
    expect(new URL(page.url()).pathname).toBe(`/en/console/clients/${site.id}/webhooks`);

    await page.fill('#webhook-id', 'crm');
    await page.fill('#webhook-url', `${receiver.url}/hook`);
    await page.check('input[name=events][value="feedback.received"]');
    await submit(page, '#add-webhook button[type=submit]');
    const secret = (await page.locator('#webhook-secret [data-secret]').innerText()).trim();
    expect(secret).toMatch(/^whsec_/);
    await page.reload();
    await expect(page.locator('#webhook-secret').count()).resolves.toBe(0);
    await expect(page.content()).resolves.not.toContain(secret);

    await submit(page, '[data-webhook=crm] form[action$="/test"] button');
    await waitFor('the test delivery', () => receiver.requests.length === 1);
    expect(verified(receiver.requests[0]!, secret).type).toBe('webhook.test');
    await waitFor('the delivered row', async () => {
      await page.reload();
      return (await page.locator('[data-webhook=crm] tr[data-status=delivered]').count()) === 1;
    });
    await expect(page.locator('[data-webhook=crm] tbody').innerText()).resolves.toContain('webhook.test');

    await page.goto(`${base}/en/console/clients/${site.id}`);
    await submit(page, '#settings form button[type=submit]');
    const settings = await admin.call('GET', `/clients/${site.id}/settings`);
    expect(settings.body.webhooks).toEqual([
      { id: 'crm', url: `${receiver.url}/hook`, events: ['check.spam', 'feedback.received'], enabled: true },
    ]);
    expect(problems).toEqual([]);
    await receiver.stop();
  });
});
