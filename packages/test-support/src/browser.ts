import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

const REPO_ROOT = resolve(__dirname, '../../..');

/**
 * Debian's Chromium, driven by playwright-core (never `playwright install`: nothing is downloaded here).
 * `.ci/run` installs the package when it is missing; elsewhere set CHROMIUM_PATH. A suite that needs a browser
 * and finds none fails with a message saying what to install; it is never skipped.
 */
function chromiumPath(): string {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(path)) {
    throw new Error(
      `No Chromium at ${path}. Install Debian's package (apt-get install -y chromium) or set CHROMIUM_PATH.`,
    );
  }
  return path;
}

/**
 * A headless Chromium with the flags this network needs: without the background-networking ones it keeps
 * trying to reach Google's hosts, which this machine refuses.
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * Where a browser test writes its screenshot of a page: `test-results/screenshots/` (ignored by git) on every
 * run, and the committed `docs/screenshots/` that the READMEs show only with UPDATE_SCREENSHOTS=1, so running
 * the tests never leaves the work tree changed.
 */
export function screenshotPath(name: string): string {
  const folder = process.env.UPDATE_SCREENSHOTS
    ? join(REPO_ROOT, 'docs', 'screenshots')
    : join(REPO_ROOT, 'test-results', 'screenshots');
  mkdirSync(folder, { recursive: true });
  return join(folder, `${name}.png`);
}

/**
 * Collects what the browser reports against the Content-Security-Policy, script errors and 404s. Error
 * pages a test asks for (401 wrong password, 400 bad settings) are logged as failed loads and not collected.
 */
export function collectProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      problems.push(message.text());
  });
  page.on('response', (response) => {
    if (response.status() === 404) problems.push(`404 ${response.url()}`);
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}
