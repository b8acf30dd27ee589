import { startStack, type Stack, SELF_CONTAINED_ENV } from '@spam-check/process-kit';
import { collectProblems, launchBrowser } from '@spam-check/test-support';
import type { Browser } from 'playwright-core';
import { signInWithKeyboard, submit } from './support/browser';

describe("the operator console's Akismet key", () => {
  let stack: Stack;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startStack({ ...SELF_CONTAINED_ENV, TEXT_LLM_MODE: 'never' }, { readyTimeoutMs: 60_000 });
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  const verify = async (key: string) => {
    const answer = await fetch(`${stack.gateway}/1.1/verify-key`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ key, blog: 'https://blog.example.org/' }),
    });
    return answer.text();
  };

  it('when the administrator issues a key, it is shown once and works; when revoked, it works no more', async () => {
    const page = await browser.newPage();
    const problems = collectProblems(page);
    await page.goto(`${stack.gateway}/de/console`);
    await signInWithKeyboard(page, 'admin', 'admin-password');
    await page.goto(`${stack.gateway}/de/console/clients/demo-client`);
    await expect(page.locator('#h-akismet').innerText()).resolves.toBe('Akismet-Schlüssel');
    await submit(page, '#akismet-issue button[type=submit]');
    const key = await page.locator('#akismet-key').innerText();
    expect(key).toMatch(/^[0-9a-f]+-[0-9a-f]{32}$/);
    await expect(verify(key)).resolves.toBe('valid');

    await page.goto(`${stack.gateway}/de/console/clients/demo-client`);
    await expect(page.content()).resolves.not.toContain(key);
    await submit(page, '#akismet-revoke button[type=submit]');
    await expect(page.locator('[role=status]').innerText()).resolves.toBe('Der Schlüssel ist widerrufen.');
    await expect(verify(key)).resolves.toBe('invalid');
    expect(problems).toEqual([]);
  });
});
