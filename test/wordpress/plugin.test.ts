import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, stopService } from '@spam-check/process-kit';
import { launchBrowser, screenshotPath } from '@spam-check/test-support';
import {
  moderate,
  PERSON_AGENT,
  postComment,
  saveSettings,
  signIn,
  verdictColumn,
  type Browser,
  type BrowserContext,
  type Page,
} from './pages';
import { PLUGIN_DIR, startSite, type WordPressSite } from './site';
import { startWordPressStack, type WordPressStack } from './stack';

// docs/design.md, Packages for sites: the plugin on a real WordPress (Debian's package, PHP 8.2 with
// WP_DEBUG, MariaDB, `php -S` on loopback) against the real stack, driven in headless Chromium as a visitor,
// a bot and a moderator would. The site speaks German, so the plugin's strings and the reasons come in
// German.

const PERSON = { name: 'Anna Schmidt', email: 'anna.schmidt@example.org' };
const FRIENDLY =
  'Thank you for this recipe! I baked the apple cake yesterday with a little less sugar and my children loved it.';
/** The text detector's documented test fixture: always spam. */
const FIXTURE_SPAM = 'Cheap watches for everyone, spam-check-test-spam';
/** Promotion the detectors let through, and the same campaign with other names, numbers and links. */
const PROMOTION = (name: string, rooms: number) =>
  `Nice photos! Our holiday flat near the beach has ${rooms} rooms and a sea view, ask ${name} for the summer prices.`;

let stack: WordPressStack;
let site: WordPressSite;
let browser: Browser;
let admin: Page;
let visitors: BrowserContext;

const comment = (id: number | undefined) => {
  if (id === undefined) throw new Error('WordPress did not accept the comment (no comment id in its answer)');
  return site.php('comment', String(id));
};
const reasonCodes = (meta: { _spam_check_reasons?: { code: string }[] }) =>
  (meta._spam_check_reasons ?? []).map((reason) => reason.code);

/** A bot's render timestamp: an old time with a signature of its own making. */
function forge(input: { value: string }): void {
  input.value = '1700000000:0000';
}

async function until<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

beforeAll(async () => {
  // Both started at once; whichever came up is kept for afterAll to remove, even when the other failed.
  const [started, installed] = await Promise.allSettled([startWordPressStack(), startSite()]);
  if (started.status === 'fulfilled') stack = started.value;
  if (installed.status === 'fulfilled') site = installed.value;
  for (const outcome of [started, installed]) if (outcome.status === 'rejected') throw outcome.reason;
  await site.php('options', JSON.stringify({ WPLANG: 'de_DE', users_can_register: 1 }));
  browser = await launchBrowser();
  admin = await signIn(browser, site.url, site.admin.user, site.admin.password);
  visitors = await browser.newContext({ userAgent: PERSON_AGENT });
}, 300_000);

afterAll(async () => {
  // WordPress's debug log stays for a look after the run (the site's folder is removed).
  if (site) {
    mkdirSync(join(REPO_ROOT, 'test-results'), { recursive: true });
    writeFileSync(join(REPO_ROOT, 'test-results', 'wordpress-debug.log'), site.debugLog());
  }
  await browser?.close();
  await Promise.all([site?.remove(), stack?.stop()]);
}, 60_000);

describe('the spam-check WordPress plugin on a real site', () => {
  it('activates without a PHP message, and its settings page keeps the secret without ever showing it', async () => {
    await admin.goto(`${site.url}/wp-admin/plugins.php`);
    await admin.locator('tr[data-slug="spam-check"] .activate a').click();
    await admin.waitForURL(/activate=true/);
    const saved = await saveSettings(admin, site.url, {
      api_url: stack.stack.gateway,
      client_id: stack.client.id,
      client_secret: stack.client.secret,
      language: 'site',
      mode: 'enforce',
    });
    expect(saved).toContain('API-Basis-URL');
    expect(saved).not.toContain(stack.client.secret);
    expect(await admin.locator('#spam-check-client_secret').inputValue()).toBe('');
    expect(await admin.locator('#spam-check-on_unreachable').inputValue()).toBe('hold');
    // Saved again without typing the secret: it is kept (the next tests' checks need it).
    await saveSettings(admin, site.url, { client_id: stack.client.id });
    await admin.screenshot({ path: screenshotPath('wordpress-settings'), fullPage: true });
  });

  it("holds a newcomer's friendly comment as the site's rules say; approving it teaches ham, and the next one is published", async () => {
    const first = await postComment(visitors, site.url, PERSON, FRIENDLY);
    const held = await comment(first.id);
    expect(held).toMatchObject({ status: 'unapproved', meta: { _spam_check_verdict: 'ham' } });
    expect(held.meta._spam_check_id).toMatch(/^[0-9a-f-]{36}$/);

    const column = await verdictColumn(admin, site.url, 'moderated', first.id!);
    expect(column).toContain('Unbedenklich');
    expect(column).toContain('Das statistische Modell');
    await moderate(admin, site.url, 'moderated', first.id!, 'approve');
    const approved = await until(
      () => comment(first.id),
      (found) => found.meta._spam_check_feedback === 'ham',
    );
    expect(approved).toMatchObject({ status: 'approved', meta: { _spam_check_feedback: 'ham' } });

    const second = await postComment(
      visitors,
      site.url,
      PERSON,
      'Which oven temperature did you use for the second batch?',
    );
    expect((await comment(second.id)).status).toBe('approved');
    expect(second.page).toContain('Which oven temperature');
  });

  it('puts a spam comment in the spam folder, with verdict, score and reasons beside it in wp-admin', async () => {
    const posted = await postComment(
      visitors,
      site.url,
      { name: 'Watch Shop', email: 'offers@example.net' },
      FIXTURE_SPAM,
    );
    const stored = await comment(posted.id);
    expect(stored).toMatchObject({ status: 'spam', meta: { _spam_check_verdict: 'spam' } });
    expect(posted.page).not.toContain('Cheap watches');
    const column = await verdictColumn(admin, site.url, 'spam', posted.id!);
    expect(column).toMatch(/Spam\s+Wert 1[,.]00/);
    expect(column).toContain('Testtext');
    await admin.screenshot({ path: screenshotPath('wordpress-spam-folder'), fullPage: true });
  });

  it('refuses a bot that fills the honeypot, and stores nothing', async () => {
    const text = 'Great content, visit my page for more!';
    const posted = await postComment(visitors, site.url, { name: 'Bot', email: 'bot@example.com' }, text, {
      // A bot fills every field it finds, the hidden one too.
      tamper: (page) => page.fill('#spam_check_website', 'http://bot.example', { force: true }),
    });
    expect(posted.status).toBe(403);
    expect(posted.page).toContain('Ihr Kommentar wurde als Spam abgelehnt.');
    expect(posted.id).toBeUndefined();
    expect(await site.php('count', text)).toEqual({ count: 0 });
    // The deployment saw the honeypot in the form context (its stats count the reason, never the context).
    const codes = async () => (await stack.stats()).top_reasons.map((reason) => reason.code);
    expect(await until(codes, (seen) => seen.includes('FORM_HONEYPOT_FILLED'))).toContain(
      'FORM_HONEYPOT_FILLED',
    );
  });

  it("sends a comment's author name and website as a comment form's context: a name that is a web address holds it", async () => {
    const posted = await postComment(
      visitors,
      site.url,
      {
        name: 'https://cheap-loans.example',
        email: 'loans@example.com',
        url: 'https://cheap-loans.example/apply',
      },
      'Lovely photos of the lake, we walked around it last summer too.',
    );
    const stored = await comment(posted.id);
    expect(stored).toMatchObject({ status: 'unapproved', meta: { _spam_check_verdict: 'suspicious' } });
    expect(reasonCodes(stored.meta)).toContain('FORM_AUTHOR_NAME_LINK');
  });

  it('holds a comment whose render timestamp was forged (counted as sent at once)', async () => {
    const posted = await postComment(
      visitors,
      site.url,
      { name: 'Quick', email: 'quick.poster@example.org' },
      'Thanks, this answered my question about the oven.',
      { tamper: (page) => page.locator('input[name="spam_check_rendered"]').evaluate(forge) },
    );
    const stored = await comment(posted.id);
    expect(stored).toMatchObject({ status: 'unapproved', meta: { _spam_check_verdict: 'suspicious' } });
    expect(reasonCodes(stored.meta)).toContain('FORM_SUBMITTED_TOO_FAST');
  });

  it('"Spam" in wp-admin teaches: the next near-duplicate goes to the spam folder by the site\'s own report', async () => {
    const first = await postComment(
      visitors,
      site.url,
      { name: 'Julie', email: 'julie.renard@example.org', url: 'https://sunny-flats.example.com' },
      PROMOTION('Julie', 3),
    );
    expect(await comment(first.id)).toMatchObject({ meta: { _spam_check_verdict: 'ham' } });
    await moderate(admin, site.url, 'moderated', first.id!, 'spam');
    expect(
      await until(
        () => comment(first.id),
        (found) => found.meta._spam_check_feedback === 'spam',
      ),
    ).toMatchObject({
      status: 'spam',
    });

    const again = await postComment(
      visitors,
      site.url,
      { name: 'Martin', email: 'martin.roux@example.com', url: 'https://cheap-flats.example.net' },
      PROMOTION('Martin', 4),
    );
    const stored = await comment(again.id);
    expect(stored.status).toBe('spam');
    expect(reasonCodes(stored.meta)).toContain('TEXT_REPORTED_SPAM');
  });

  it('"Not spam" in wp-admin sends feedback by check id, and the stack shows it', async () => {
    const posted = await postComment(
      visitors,
      site.url,
      { name: 'Tom', email: 'spam@spam-check.test' },
      'Looks lovely! Which flour did you use?',
    );
    const stored = await comment(posted.id);
    expect(stored.status).toBe('spam');
    await moderate(admin, site.url, 'spam', posted.id!, 'unspam');
    await until(
      () => comment(posted.id),
      (found) => found.meta._spam_check_feedback === 'ham',
    );
    const { feedback } = await stack.recentFeedback();
    expect(feedback).toContainEqual(
      expect.objectContaining({
        check_id: stored.meta._spam_check_id,
        label: 'ham',
        applied_to: ['email', 'text'],
      }),
    );
    expect(await verdictColumn(admin, site.url, 'all', posted.id!)).toContain('Als kein Spam gemeldet');
  });

  it("refuses a registration with a spam address, with the reason in the site's language", async () => {
    const page = await visitors.newPage();
    await page.goto(`${site.url}/wp-login.php?action=register`);
    await page.fill('#user_login', 'spammer');
    await page.fill('#user_email', 'spam@spam-check.test');
    await page.waitForTimeout(1500);
    await page.click('#wp-submit');
    const error = await page.locator('#login_error').innerText();
    await page.close();
    expect(error).toContain('Diese Registrierung wurde als Spam abgelehnt.');
    expect(error).toContain('Testadresse');
    expect(await site.php('user', 'spam@spam-check.test')).toEqual({ exists: false });
  });

  it('sets the site rules from its settings page at the deployment: a comment in another language is held, a bad value is refused there', async () => {
    const saved = await saveSettings(admin, site.url, { allowed_languages: 'DE fr', max_links: '2' });
    expect(saved).not.toContain('Die Regeln der Site wurden nicht geändert');
    expect((await stack.settings()).text_rules).toEqual({ allowed_languages: ['de', 'fr'], max_links: 2 });
    await expect(admin.locator('#spam-check-allowed_languages').inputValue()).resolves.toBe('de, fr');
    // A change of settings holds on every process of the deployment within 1 s.
    await admin.waitForTimeout(1100);
    const posted = await postComment(
      visitors,
      site.url,
      PERSON,
      'Lovely pictures of the harbour, we sailed there in June and the children loved the boats.',
    );
    const stored = await comment(posted.id);
    expect(stored.status).not.toBe('approved');
    expect(reasonCodes(stored.meta)).toContain('TEXT_LANGUAGE_NOT_ALLOWED');

    const refused = await saveSettings(admin, site.url, { max_links: '-1' });
    expect(refused).toContain('Die Regeln der Site wurden nicht geändert');
    expect(refused).toContain('max_links');
    expect((await stack.settings()).text_rules).toEqual({ allowed_languages: ['de', 'fr'], max_links: 2 });
    await expect(admin.locator('#spam-check-max_links').inputValue()).resolves.toBe('2');

    await saveSettings(admin, site.url, { allowed_languages: '', max_links: '' });
    expect((await stack.settings()).text_rules).toEqual({ allowed_languages: null, max_links: null });
    await admin.waitForTimeout(1100);
  });

  it('dry-run changes nothing but logs the verdict', async () => {
    await saveSettings(admin, site.url, { mode: 'dry-run' });
    const posted = await postComment(visitors, site.url, PERSON, `Dry run: ${FIXTURE_SPAM}`);
    const stored = await comment(posted.id);
    expect(stored).toMatchObject({ status: 'approved', meta: { _spam_check_verdict: 'spam' } });
    expect(site.debugLog()).toContain(
      `[spam-check] dry-run: comment verdict spam, score 1.00, check ${stored.meta._spam_check_id}`,
    );
    expect(await verdictColumn(admin, site.url, 'all', posted.id!)).toContain('Probelauf');
    await saveSettings(admin, site.url, { mode: 'enforce' });
  });

  it('holds comments for moderation while the API cannot be reached', async () => {
    await stopService(stack.stack.services.gateway);
    const posted = await postComment(visitors, site.url, PERSON, 'Made it again today, still delicious.');
    const stored = await comment(posted.id);
    expect(stored.status).toBe('unapproved');
    expect(stored.meta._spam_check_error).toContain('nicht erreichbar');
    expect(site.debugLog()).toContain('[spam-check] comment not checked (hold)');
    expect(await verdictColumn(admin, site.url, 'moderated', posted.id!)).toContain('Nicht geprüft');
  });

  it("left no PHP warning, notice or deprecation from the plugin's files in WordPress's debug log", () => {
    // WordPress 6.1 itself logs deprecations under PHP 8.2, and warnings where it cannot reach wordpress.org.
    const phpMessages = site
      .debugLog()
      .split('\n')
      .filter((line) => /PHP (Warning|Notice|Deprecated|Fatal error|Parse error)/.test(line));
    // The plugin's own lines only: a failure then shows every error the plugin logged during the run.
    const pluginLines = site
      .debugLog()
      .split('\n')
      .filter((line) => line.includes('[spam-check]'));
    expect(pluginLines).toContainEqual(expect.stringContaining('[spam-check] dry-run'));
    expect(
      phpMessages.filter((line) => line.includes(PLUGIN_DIR) || line.includes('plugins/spam-check')),
    ).toEqual([]);
    expect(phpMessages.filter((line) => /PHP (Fatal|Parse) error/.test(line))).toEqual([]);
  });
});
