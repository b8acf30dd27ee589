import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SpamCheckOptions, SubmissionLog } from '@spam-check/middleware';
import { freePort, startStack, type Stack, SELF_CONTAINED_ENV } from '@spam-check/process-kit';
import { launchBrowser } from '@spam-check/test-support';
import type { Browser, Page } from 'playwright-core';
import { createSite } from '../../src/site';

// A person's browser: headless Chromium says "HeadlessChrome" in its user agent, which is a bot's.
const PERSON_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
// FORM_MIN_SECONDS of the stack: a person here waits longer, a bot posts at once.
const MIN_SECONDS = 5;

interface Site {
  url: string;
  logs: SubmissionLog[];
  close: () => Promise<void>;
}

// The example site on port 0 against the real stack (four processes, as `pnpm start` runs them), in Chromium.
describe('the example site with @spam-check/middleware, against the real stack, in Chromium', () => {
  jest.setTimeout(120_000);
  let stack: Stack;
  let browser: Browser;
  const sites: Site[] = [];

  async function startSite(options: Partial<SpamCheckOptions>, baseUrl = stack.gateway): Promise<Site> {
    const logs: SubmissionLog[] = [];
    const server: http.Server = createSite({
      // A deadline for a loaded test machine; the middleware's default (3 s) suits a site.
      api: { baseUrl, clientId: 'demo-client', clientSecret: 'demo-secret', timeoutMs: 30_000 },
      secret: 'site-secret',
      refuse: ['spam', 'suspicious'],
      log: (entry) => logs.push(entry),
      ...options,
    }).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const site = {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      logs,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
    sites.push(site);
    return site;
  }

  beforeAll(async () => {
    stack = await startStack(
      {
        ...SELF_CONTAINED_ENV,
        FORM_MIN_SECONDS: String(MIN_SECONDS),
        // Cheap hashes of the demo secrets: the stack is ready sooner on a busy machine.
        AUTH_SCRYPT_COST: '1024',
      },
      { readyTimeoutMs: 420_000 },
    );
    browser = await launchBrowser();
  }, 480_000);

  afterAll(async () => {
    await Promise.all(sites.map((site) => site.close()));
    await browser?.close();
    await stack?.stop();
  });

  async function openForm(url: string): Promise<Page> {
    const context = await browser.newContext({ userAgent: PERSON_AGENT });
    const page = await context.newPage();
    await page.goto(url);
    return page;
  }

  async function fillComment(page: Page) {
    await page.fill('#email', 'ham@spam-check.test');
    await page.fill('#title', 'Opening hours');
    await page.fill('#body', 'When does the library open on Saturday?');
  }

  async function submit(page: Page): Promise<{ status: number; text: string }> {
    const [response] = await Promise.all([page.waitForNavigation(), page.click('button')]);
    return { status: response?.status() ?? 0, text: await page.innerText('body') };
  }

  async function submitAtOnce(page: Page): Promise<{ status: number; text: string }> {
    const [response] = await Promise.all([
      page.waitForNavigation(),
      page.evaluate("document.querySelector('form').submit()"),
    ]);
    return { status: response?.status() ?? 0, text: await page.innerText('body') };
  }

  const waitLikeAPerson = () => new Promise((resolve) => setTimeout(resolve, MIN_SECONDS * 1000 + 500));

  it('when a person fills the comment form and takes their time, the comment is accepted as ham', async () => {
    const site = await startSite({ mode: 'enforce' });
    const page = await openForm(`${site.url}/comments`);
    await fillComment(page);
    await waitLikeAPerson();
    const answer = await submit(page);
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('Thank you: your comment was accepted');
    expect(answer.text).toContain('Verdict: ham');
    expect(site.logs).toEqual([
      expect.objectContaining({ allowed: true, status: 'checked', verdict: 'ham' }),
    ]);
  });

  it('when the comment form names its author with a web address, the API judges the name and refuses the comment', async () => {
    const site = await startSite({ mode: 'enforce' });
    const page = await openForm(`${site.url}/comments`);
    await fillComment(page);
    await page.fill('#name', 'https://cheap-pills.example');
    await page.fill('#website', 'https://cheap-pills.example/shop');
    await waitLikeAPerson();
    const answer = await submit(page);
    expect(answer.status).toBe(422);
    expect(answer.text).toContain('FORM_AUTHOR_NAME_LINK');
    expect(site.logs[0]).toMatchObject({
      allowed: false,
      reasons: expect.arrayContaining(['FORM_AUTHOR_NAME_LINK']),
    });
  });

  it('when a bot fills the honeypot in enforce mode, the comment is refused with FORM_HONEYPOT_FILLED', async () => {
    const site = await startSite({ mode: 'enforce' });
    const page = await openForm(`${site.url}/comments`);
    await fillComment(page);
    await page.fill('input[name="website_url"]', 'https://cheap.example');
    await waitLikeAPerson();
    const answer = await submit(page);
    expect(answer.status).toBe(422);
    expect(answer.text).toContain('was not accepted');
    expect(answer.text).toContain('FORM_HONEYPOT_FILLED');
    expect(site.logs[0]).toMatchObject({ allowed: false, verdict: 'spam', mode: 'enforce' });
  });

  it('when a bot posts the sign-up form at once in enforce mode, it is refused as submitted too fast', async () => {
    const site = await startSite({ mode: 'enforce' });
    const page = await openForm(`${site.url}/signup`);
    await page.fill('#email', 'ham@spam-check.test');
    const answer = await submitAtOnce(page);
    expect(answer.status).toBe(422);
    expect(answer.text).toContain('FORM_SUBMITTED_TOO_FAST');
  });

  it('when the same bots post in dry-run mode, nothing is refused: the verdict is logged and shown', async () => {
    const site = await startSite({ mode: 'dry-run' });
    const honeypot = await openForm(`${site.url}/comments`);
    await fillComment(honeypot);
    await honeypot.fill('input[name="website_url"]', 'https://cheap.example');
    const first = await submit(honeypot);
    expect(first.status).toBe(200);
    expect(first.text).toContain('Dry run: the spam check says spam; it was logged, not refused.');
    const fast = await openForm(`${site.url}/signup`);
    await fast.fill('#email', 'ham@spam-check.test');
    const second = await submitAtOnce(fast);
    expect(second.status).toBe(200);
    expect(second.text).toContain('Dry run: the spam check says suspicious');
    expect(site.logs).toEqual([
      expect.objectContaining({
        allowed: true,
        mode: 'dry-run',
        verdict: 'spam',
        reasons: expect.arrayContaining(['FORM_HONEYPOT_FILLED']),
      }),
      expect.objectContaining({
        allowed: true,
        mode: 'dry-run',
        verdict: 'suspicious',
        reasons: ['EMAIL_TEST_FIXTURE', 'FORM_SUBMITTED_TOO_FAST'],
      }),
    ]);
  });

  it('when the API is down, onUnavailable decides and the page says so', async () => {
    const down = `http://127.0.0.1:${await freePort()}`;
    const rejecting = await startSite({ onUnavailable: 'reject' }, down);
    const page = await openForm(`${rejecting.url}/comments`);
    await fillComment(page);
    await waitLikeAPerson();
    const refused = await submit(page);
    expect(refused.status).toBe(503);
    expect(refused.text).toContain('The spam check is unavailable, so it was not accepted.');
    const allowing = await startSite({ onUnavailable: 'allow' }, down);
    const other = await openForm(`${allowing.url}/signup`);
    await other.fill('#email', 'ham@spam-check.test');
    await waitLikeAPerson();
    const accepted = await submit(other);
    expect(accepted.status).toBe(200);
    expect(accepted.text).toContain('The spam check was unavailable: accepted without a check.');
    expect(allowing.logs).toEqual([expect.objectContaining({ allowed: true, status: 'unavailable' })]);
  });

  it('when the contact form goes to the fetch-style route handler, checkSubmission() lets a person through and refuses a direct post', async () => {
    const site = await startSite({ mode: 'enforce' });
    const page = await openForm(`${site.url}/contact`);
    await page.fill('#email', 'ham@spam-check.test');
    await page.fill('#body', 'Could you send me the programme of the autumn lectures?');
    await waitLikeAPerson();
    const answer = await submit(page);
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('Thank you: your message was accepted');
    // A script posting straight to the route: no rendered form, so no signed render time, and its own agent.
    const direct = await fetch(`${site.url}/api/contact`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'user-agent': 'python-requests/2.32.3',
      },
      body: new URLSearchParams({ email: 'ham@spam-check.test', body: 'Buy now' }),
    });
    expect(direct.status).toBe(422);
    const text = await direct.text();
    expect(text).toContain('FORM_SUBMITTED_TOO_FAST');
    expect(text).toContain('FORM_BOT_USER_AGENT');
  });
});
