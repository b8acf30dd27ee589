import type { launchBrowser } from '@spam-check/test-support';

// playwright-core's types, by way of test-support (the workspace root does not depend on playwright-core).
export type Browser = Awaited<ReturnType<typeof launchBrowser>>;
export type BrowserContext = Awaited<ReturnType<Browser['newContext']>>;
export type Page = Awaited<ReturnType<Browser['newPage']>>;

/** A desktop Chrome's user agent: headless Chromium's own says "HeadlessChrome", which is a bot's. */
export const PERSON_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

export interface Commenter {
  name: string;
  email: string;
  url?: string;
}

export interface Posted {
  /** The comment's id, from the address WordPress sends the commenter to (undefined when refused). */
  id?: number;
  status: number;
  page: string;
}

/** Signs in to wp-admin in a context of its own and returns its page. */
export async function signIn(browser: Browser, site: string, user: string, password: string): Promise<Page> {
  const context = await browser.newContext({ userAgent: PERSON_AGENT });
  const page = await context.newPage();
  await page.goto(`${site}/wp-login.php`);
  await page.fill('#user_login', user);
  await page.fill('#user_pass', password);
  await Promise.all([page.waitForURL(/\/wp-admin\/?/), page.click('#wp-submit')]);
  return page;
}

/**
 * Comments on the first post as a visitor: opens the post, fills the form, waits as long as a person takes
 * (`typingMs`), optionally runs `tamper` on the page (a bot's doing), and submits.
 */
export async function postComment(
  context: BrowserContext,
  site: string,
  author: Commenter,
  text: string,
  options: { typingMs?: number; tamper?: (page: Page) => Promise<void> } = {},
): Promise<Posted> {
  const page = await context.newPage();
  try {
    await page.goto(`${site}/?p=1`);
    await page.fill('#comment', text);
    await page.fill('#author', author.name);
    await page.fill('#email', author.email);
    if (author.url) await page.fill('#url', author.url);
    await page.waitForTimeout(options.typingMs ?? 1500);
    if (options.tamper) await options.tamper(page);
    const [response] = await Promise.all([
      page.waitForResponse((answer) => answer.url().endsWith('/wp-comments-post.php')),
      page.click('#submit'),
    ]);
    // Accepted: a redirect to the comment (`#comment-N`, with `unapproved=N` while it is held). Refused: a page.
    const location = response.headers()['location'];
    if (location) await page.waitForURL(new URL(location, site).href);
    await page.waitForLoadState();
    const id = /[?&]unapproved=(\d+)/.exec(location ?? '')?.[1] ?? /#comment-(\d+)/.exec(location ?? '')?.[1];
    return {
      id: id === undefined ? undefined : Number(id),
      status: response.status(),
      page: await page.content(),
    };
  } finally {
    await page.close();
  }
}

/**
 * A moderator's click on a comment's row action in wp-admin's comment list ("approve", "spam", "unspam"),
 * which WordPress sends by AJAX; resolves when admin-ajax.php has answered.
 */
export async function moderate(
  page: Page,
  site: string,
  list: 'moderated' | 'spam' | 'all',
  id: number,
  action: 'approve' | 'spam' | 'unspam',
): Promise<void> {
  await page.goto(`${site}/wp-admin/edit-comments.php?comment_status=${list}`);
  const row = page.locator(`#comment-${id}`);
  await row.hover();
  await Promise.all([
    page.waitForResponse(
      (answer) => answer.url().includes('/wp-admin/admin-ajax.php') && answer.status() === 200,
    ),
    row.locator(`.row-actions .${action} a`).first().click(),
  ]);
}

/** The "Spam check" column of a comment's row in wp-admin's comment list. */
export async function verdictColumn(page: Page, site: string, list: string, id: number): Promise<string> {
  await page.goto(`${site}/wp-admin/edit-comments.php?comment_status=${list}`);
  return page.locator(`#comment-${id} td.column-spam_check`).innerText();
}

export interface PluginSettings {
  api_url?: string;
  client_id?: string;
  client_secret?: string;
  language?: 'site' | 'de' | 'fr' | 'en';
  mode?: 'enforce' | 'dry-run';
  on_unreachable?: 'hold' | 'allow';
  allowed_languages?: string;
  max_links?: string;
}

/** Fills Settings → Spam Check with the given values, saves, and returns the page as saved. */
export async function saveSettings(page: Page, site: string, values: PluginSettings): Promise<string> {
  await page.goto(`${site}/wp-admin/options-general.php?page=spam-check`);
  for (const [key, value] of Object.entries(values)) {
    const field = page.locator(`#spam-check-${key}`);
    if ((await field.evaluate((element) => element.tagName)) === 'SELECT') await field.selectOption(value);
    else await field.fill(value);
  }
  await Promise.all([page.waitForURL(/settings-updated=true/), page.click('#submit')]);
  return page.content();
}
