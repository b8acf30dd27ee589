import { screenshotPath } from '@spam-check/test-support';
import type { Page } from 'playwright-core';

/**
 * Screenshots of the console's pages: under test-results/ on every run, refreshing the committed
 * docs/screenshots (the README shows one) only with UPDATE_SCREENSHOTS=1.
 */
export async function screenshot(
  page: Page,
  name: string,
  options: { fullPage?: boolean; section?: string } = {},
): Promise<void> {
  const path = screenshotPath(name);
  if (options.section) await page.locator(options.section).screenshot({ path });
  else await page.screenshot({ path, fullPage: options.fullPage ?? true });
}

/**
 * Everything the browser receives: each answer's status line, headers and (when it has one) body. The
 * test then looks for secrets in it.
 */
export function recordResponses(page: Page): { texts: string[]; settled: () => Promise<void> } {
  const texts: string[] = [];
  const pending: Promise<void>[] = [];
  page.on('response', (response) => {
    pending.push(
      (async () => {
        const headers = await response.allHeaders();
        let body = '';
        if (response.status() < 300 || response.status() >= 400) body = await response.text().catch(() => '');
        texts.push(`${response.status()} ${response.url()}\n${JSON.stringify(headers)}\n${body}`);
      })(),
    );
  });
  return { texts, settled: async () => void (await Promise.all(pending)) };
}

/**
 * Signs in with the keyboard only: the user name field has focus, Tab to the password, Enter. Typing starts
 * once the page's autofocus has put the focus there, so no letter is typed before it (a CI run once saw the
 * sign-in page again instead of the clients; the cause was not captured); a page without autofocus times out
 * here.
 */
export async function signInWithKeyboard(page: Page, username: string, password: string): Promise<void> {
  await page.waitForFunction("document.activeElement?.id === 'username'", undefined, { timeout: 5000 });
  await page.keyboard.type(username);
  await page.keyboard.press('Tab');
  await page.keyboard.type(password);
  await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
}

/** Clicks a submit button and waits for the page the form leads to. */
export async function submit(page: Page, selector: string): Promise<void> {
  await Promise.all([page.waitForNavigation(), page.click(selector)]);
}

/** The session cookie the browser holds, to replay it after sign-out. */
export async function sessionCookie(page: Page): Promise<string | undefined> {
  const cookies = await page.context().cookies();
  return cookies.find((cookie) => cookie.name === 'console_session')?.value;
}
