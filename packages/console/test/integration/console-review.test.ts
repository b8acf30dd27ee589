import type { Browser, Page } from 'playwright-core';
import { collectProblems } from '@spam-check/test-support';
import { screenshot, signInWithKeyboard, submit } from './support/browser';
import { consoleStackForSuite, json } from './support/console-stack';

const VOCABULARY = (
  'garden river window coffee winter morning letter market bridge forest music yellow pencil candle ' +
  'harbour meadow island silver orange basket ladder kitchen mirror thunder velvet lantern pepper ' +
  'saddle blanket copper marble feather violin tunnel castle sparrow walnut cherry anchor harvest'
).split(' ');

/** A text of its own for each index: words of the vocabulary in an order no other index gives. */
function textOf(index: number) {
  const words = Array.from(
    { length: 14 },
    (_, n) => VOCABULARY[(index * 7 + n * (index % 5) + n * n * 3) % VOCABULARY.length]!,
  );
  return { title: `Note about the ${words[0]}`, body: `We talked about ${words.join(' ')} after dinner.` };
}

const KEYBOARD_TEXT = {
  title: 'A question about the opening hours',
  body: 'Hello, could you tell me whether the library on the market square is open on Sunday afternoons?',
};
/** The same message with a few words changed: a near-duplicate for the text detector. */
const KEYBOARD_NEAR = {
  title: 'A question about the opening hours',
  body: 'Hello, could you tell me whether the library on the market square is open on Saturday afternoons?',
};

// The console's Review page in Debian's Chromium against the four services as processes, with real Redis
// (support/console-stack.ts): corrections go through the admin API as the client's own reports, and the text
// detector learns them.
describe("the console's Review page, in a browser", () => {
  const { admin, consoleClient, web, apiToken, state } = consoleStackForSuite();
  let browser: Browser;
  let base: string;
  let token: string;
  beforeAll(() => {
    ({ browser, base } = state);
  });

  const gateway = () => state.stack.gateway;
  const checkText = async (body: object) => {
    const answer = await json(`${gateway()}/api/v1/spam/text`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(answer.status).toBe(200);
    return answer.body as { id: string; verdict: string; reasons: { code: string }[] };
  };
  /** The client's own list (its token), once it holds the checks `ids`: they are kept once answered. */
  const listed = async (ids: string[], kind = 'text') => {
    for (let attempt = 0; ; attempt += 1) {
      const answer = await json(`${gateway()}/api/v1/checks?limit=100&kind=${kind}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(answer.status).toBe(200);
      const items = answer.body.items as {
        id: string;
        report: { label: string } | null;
        content: object | null;
      }[];
      const found = items.filter((item) => ids.includes(item.id));
      if (found.length === ids.length || attempt === 200) return found;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  /** An attribute of every element `selector` finds, in document order. */
  const attributes = async (page: Page, selector: string, name: string) =>
    Promise.all((await page.locator(selector).all()).map((element) => element.getAttribute(name)));
  const rowOf = (page: Page, id: string) => page.locator(`tr[data-check="${id}"]`);
  const reviewUrl = (language = '') => `${gateway()}${language}/console/clients/${web.id}/review`;

  it('corrects 100 checks in bulk and one by keyboard, shows what a new check says now, and the next near-duplicate is judged by the correction', async () => {
    token = await apiToken();
    const keyboard = await checkText(KEYBOARD_TEXT);
    expect(keyboard.verdict).toBe('ham');
    await listed([keyboard.id]);
    // Only the keyboard's check is older than this: the page filtered by it holds that row alone.
    const between = new Date().toISOString();
    const batch = await json(`${gateway()}/api/v1/spam/text/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ items: Array.from({ length: 100 }, (_, index) => textOf(index)) }),
    });
    expect(batch.status).toBe(200);
    const bulkIds = (batch.body.results as { id: string }[]).map((result) => result.id);
    expect(new Set(bulkIds).size).toBe(100);
    await listed(bulkIds);

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = collectProblems(page);
    await page.goto(`${base}/sign-in`);
    await signInWithKeyboard(page, admin.username, admin.password);
    await page.goto(`${base}/clients/${web.id}`);
    await submit(page, '#review-link');
    expect(new URL(page.url()).pathname).toBe(`/console/clients/${web.id}/review`);

    // The newest 100 are the batch's: select all, "Spam".
    await page.selectOption('#f-limit', '100');
    await submit(page, '#review-filters button[type=submit]');
    const shownIds = await attributes(page, '#review-rows tbody tr', 'data-check');
    expect(new Set(shownIds)).toEqual(new Set(bulkIds));
    await page.check('#select-all');
    await expect(page.locator('#review-rows tbody input[name=ids]:checked').count()).resolves.toBe(100);
    await submit(page, '#bulk-spam');
    await expect(page.locator('#review-outcome').innerText()).resolves.toBe('Reports applied: 100');
    const reports = await attributes(page, '#review-rows tbody tr', 'data-report');
    expect(reports).toEqual(Array(100).fill('spam'));
    // Each corrected row: what a new check of its stored text says now.
    const now = await attributes(page, '#review-rows [data-now]', 'data-now');
    expect(now).toEqual(Array(100).fill('spam'));
    await screenshot(page, 'console-review', { fullPage: false });
    const listedNow = await listed(bulkIds);
    expect(listedNow.filter((item) => item.report?.label === 'spam')).toHaveLength(100);
    const bulkNear = await checkText({ ...textOf(7), body: `${textOf(7).body} Thanks.` });
    expect(bulkNear.verdict).toBe('spam');
    expect(bulkNear.reasons[0]?.code).toBe('TEXT_REPORTED_SPAM');

    // The keyboard: j to the row, s for spam; the page comes back on that row.
    await page.goto(`${reviewUrl()}?until=${encodeURIComponent(between)}`);
    await expect(page.locator('#review-rows tbody tr').count()).resolves.toBe(1);
    await page.keyboard.press('j');
    const focused = () => page.evaluate("document.activeElement?.getAttribute('data-check')");
    await expect(focused()).resolves.toBe(keyboard.id);
    /** The row shows `label` as its report and as a new check's verdict; the next near-duplicate is so too. */
    const expectLearnt = async (label: 'spam' | 'ham') => {
      await expect(rowOf(page, keyboard.id).getAttribute('data-report')).resolves.toBe(label);
      const now = rowOf(page, keyboard.id).locator('[data-now]');
      await expect(now.getAttribute('data-now')).resolves.toBe(label);
      const near = await checkText(KEYBOARD_NEAR);
      expect(near.verdict).toBe(label);
      expect(near.reasons[0]?.code).toBe(label === 'spam' ? 'TEXT_REPORTED_SPAM' : 'TEXT_REPORTED_HAM');
    };
    await Promise.all([page.waitForNavigation(), page.keyboard.press('s')]);
    await expect(focused()).resolves.toBe(keyboard.id);
    await expectLearnt('spam');

    // u: undo, the other label; the next near-duplicate is ham again.
    await Promise.all([page.waitForNavigation(), page.keyboard.press('u')]);
    await expectLearnt('ham');

    await page.goto(`${reviewUrl('/de')}?limit=20`);
    await expect(page.locator('#bulk-ham').innerText()).resolves.toBe('Kein Spam');
    const firstRow = page.locator('#review-rows tbody tr').first();
    await expect(firstRow.locator('button[data-key=h]').innerText()).resolves.toBe('Kein Spam');
    await screenshot(page, 'console-review-de', { fullPage: false });
    await page.goto(`${reviewUrl('/fr')}?limit=20`);
    await expect(page.locator('#bulk-ham').innerText()).resolves.toBe('Pas du spam');
    expect(problems).toEqual([]);
    await context.close();
  }, 240_000);

  /** The client keeps the submitted fields of its checks for a day (admin API, as the console's settings). */
  const keepContent = async () => {
    const tokenAnswer = await json(`${gateway()}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${consoleClient.id}:${consoleClient.secret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'password', scope: 'spam:admin', ...admin }),
    });
    expect(tokenAnswer.status).toBe(200);
    const put = await json(`${gateway()}/api/v1/admin/clients/${web.id}/settings`, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${tokenAnswer.body.access_token as string}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ review: { keep_content_days: 1 } }),
    });
    expect(put.status).toBe(200);
  };

  it('with JavaScript off, a row is corrected by its button, a plain form posted and redirected, and its kept address checked again', async () => {
    token = await apiToken();
    await keepContent();
    // Settings reach every replica within a second: the first check made after that keeps its address.
    let checked: { id: string; verdict: string } | undefined;
    for (let attempt = 0; attempt < 40 && !checked; attempt += 1) {
      const answer = await json(`${gateway()}/api/v1/spam/mail`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'someone@mailinator.com' }),
      });
      expect(answer.status).toBe(200);
      const [item] = await listed([answer.body.id as string], 'mail');
      if (item?.content) checked = answer.body as { id: string; verdict: string };
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(checked?.verdict).toBe('spam');
    const checkedId = checked?.id ?? '';
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const problems = collectProblems(page);
    await page.goto(`${base}/sign-in`);
    await page.fill('#username', admin.username);
    await page.fill('#password', admin.password);
    await submit(page, 'form[action$="/sign-in"] button[type=submit]');
    await page.goto(reviewUrl());
    await expect(page.locator('#select-all').isHidden()).resolves.toBe(true);
    const answers: number[] = [];
    page.on('response', (response) => answers.push(response.status()));
    await submit(page, `tr[data-check="${checkedId}"] button[data-key=h]`);
    expect(answers.slice(0, 2)).toEqual([303, 200]);
    await expect(rowOf(page, checkedId).getAttribute('data-report')).resolves.toBe('ham');
    await expect(page.locator('#review-outcome').innerText()).resolves.toBe('Reports applied: 1');
    // The kept address checked again as the client: its report decides now.
    await expect(rowOf(page, checkedId).locator('[data-now]').getAttribute('data-now')).resolves.toBe('ham');
    await expect(rowOf(page, checkedId).locator('td.content').innerText()).resolves.toContain(
      'someone@mailinator.com',
    );
    const [item] = await listed([checkedId], 'mail');
    expect(item?.report?.label).toBe('ham');
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  it('when a correction is forged, empty or for an unknown client, or a filter is bad, it is refused and nothing is reported', async () => {
    token = await apiToken();
    const checked = await checkText({ title: 'Bad input', body: 'Another plain comment on the page.' });
    await listed([checked.id]);
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${base}/sign-in`);
    await page.fill('#username', admin.username);
    await page.fill('#password', admin.password);
    await submit(page, 'form[action$="/sign-in"] button[type=submit]');
    await page.goto(reviewUrl());
    const csrf = (await page.locator('#review-form input[name=csrf]').inputValue()) ?? '';
    const post = (path: string, form: Record<string, string>, origin = gateway()) =>
      context.request.post(`${gateway()}${path}`, {
        form,
        headers: { origin, accept: 'text/html' },
        maxRedirects: 0,
      });
    const path = `/console/clients/${web.id}/review`;
    const one = `${checked.id}:spam`;
    expect((await post(path, { one })).status()).toBe(403);
    expect((await post(path, { csrf, one }, 'http://elsewhere.example')).status()).toBe(403);
    const empty = await post(path, { csrf, bulk: 'spam' });
    expect(empty.status()).toBe(400);
    expect(await empty.text()).toContain('Validation failed');
    expect((await post(path, { csrf, one: 'not a correction' })).status()).toBe(400);
    expect((await post('/console/clients/no-such-client/review', { csrf, one })).status()).toBe(404);
    const [item] = await listed([checked.id]);
    expect(item?.report).toBeNull();

    const badFilter = await page.goto(`${reviewUrl()}?verdict=maybe`);
    expect(badFilter?.status()).toBe(400);
    const unknown = await page.goto(`${gateway()}/console/clients/no-such-client/review`);
    expect(unknown?.status()).toBe(404);
    await context.close();
  }, 60_000);
});
