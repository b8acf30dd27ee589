import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { AkismetClient as AkismetApiClient } from 'akismet-api';
import { AkismetClient } from 'akismet';
import { recentFeedbackSchema } from '@spam-check/contracts';
import { akismetStackForSuite } from '../integration/e2e/akismet-stack';
import { postComment, startAkismetSite } from './wordpress-akismet';

const BLOG = 'https://blog.example.org/';
// The Akismet clients put the key into the host name: `<key>.spam-check.test` resolves to loopback
// (test/clients/resolve-loopback.mjs, loaded by `pnpm test:clients`).
const HOST = 'spam-check.test';
const comment = (n: number) =>
  `Lovely photos of the lake at dawn, picture ${n}. We hiked there last autumn with the children.`;

const oauthClient = {
  id: `oidc-${randomUUID().slice(0, 8)}`,
  secret: `oidc-${randomUUID()}`,
  username: `oidc-user-${randomUUID().slice(0, 8)}`,
  password: `pw-${randomUUID()}`,
};

const HOSTS_FILE = '/etc/hosts';

/**
 * Perl resolves names itself, so for Net::Akismet the service's host name and the key's go into the resolver's hosts file for
 * the run: one line, marked, removed afterwards (the file is left as it was).
 */
async function withHostsEntry<T>(names: string, run: () => Promise<T>): Promise<T> {
  const marker = `# spam-check test:clients ${randomUUID()}`;
  try {
    appendFileSync(HOSTS_FILE, `127.0.0.1 ${names} ${marker}\n`);
  } catch (error) {
    throw new Error(
      `cannot add ${names} to ${HOSTS_FILE} (root needed for the Net::Akismet test): ${String(error)}`,
    );
  }
  try {
    return await run();
  } finally {
    const kept = readFileSync(HOSTS_FILE, 'utf8')
      .split('\n')
      .filter((line) => !line.includes(marker))
      .join('\n');
    writeFileSync(HOSTS_FILE, kept);
  }
}

describe('third-party clients, unpatched, against the real stack', () => {
  const suite = akismetStackForSuite({
    clients: [
      {
        id: oauthClient.id,
        secret: oauthClient.secret,
        grants: ['password', 'refresh_token', 'client_credentials'],
        scopes: ['spam:check'],
      },
    ],
    users: [{ username: oauthClient.username, password: oauthClient.password }],
  });
  const port = () => new URL(suite.state.stack.gateway).port;

  it('when npm akismet-api is given the host, it verifies the key, checks comments and reports them', async () => {
    const { key } = await suite.clientWithKey('akismet-api');
    const client = new AkismetApiClient({ key, blog: BLOG, host: `${HOST}:${port()}`, protocol: 'http' });
    await expect(client.verifyKey()).resolves.toBe(true);
    await expect(client.checkSpam({ ip: '192.0.2.1', content: comment(1) })).resolves.toBe(false);
    await expect(client.checkSpam({ ip: '192.0.2.1', content: 'spam-check-test-spam' })).resolves.toBe(true);
    await client.submitSpam({ ip: '192.0.2.1', content: comment(1) });
    await expect(client.checkSpam({ ip: '192.0.2.1', content: comment(2) })).resolves.toBe(true);
    await client.submitHam({ ip: '192.0.2.1', content: comment(2) });
    await expect(client.checkSpam({ ip: '192.0.2.1', content: comment(3) })).resolves.toBe(false);
    const wrong = new AkismetApiClient({
      key: `${key.split('-')[0]}-${'0'.repeat(32)}`,
      blog: BLOG,
      host: `${HOST}:${port()}`,
      protocol: 'http',
    });
    await expect(wrong.verifyKey()).resolves.toBe(false);
  });

  it('when npm akismet is given the host and port, it verifies the key, checks comments and reports them', async () => {
    const { key } = await suite.clientWithKey('akismet');
    const client = new AkismetClient({ apiKey: key, blog: BLOG, host: HOST, port: Number(port()) });
    const call = <T>(run: (done: (error: unknown, value?: T) => void) => void) =>
      new Promise<T | undefined>((resolve, reject) =>
        run((error, value) => (error ? reject(new Error(JSON.stringify(error))) : resolve(value))),
      );
    await expect(call<boolean>((done) => client.verifyKey(done))).resolves.toBe(true);
    // The commenter's browser, as a site sends it (without it the library sends its own agent, a bot's).
    const form = (n: number) => ({
      user_ip: '192.0.2.2',
      user_agent: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
      comment_content: comment(n),
    });
    await expect(call<boolean>((done) => client.checkComment(form(10), done))).resolves.toBe(false);
    await call((done) => client.submitSpam(form(10), done));
    await expect(call<boolean>((done) => client.checkComment(form(11), done))).resolves.toBe(true);
  });

  it('when openid-client discovers the server, it does client_credentials, password and refresh, and revocation', async () => {
    const server = new URL(suite.state.stack.gateway);
    const { stdout } = await promisify(execFile)(process.execPath, [
      join(__dirname, 'openid-client-flow.mjs'),
      server.origin,
      oauthClient.id,
      oauthClient.secret,
      oauthClient.username,
      oauthClient.password,
    ]);
    expect(JSON.parse(stdout)).toEqual({
      tokenEndpoint: `${server.origin}/oauth/token`,
      machine: { access: true, refresh: null },
      machineCheck: 200,
      refreshed: { access: true, rotated: true },
      beforeRevocation: 200,
      afterRevocation: 401,
    });
  });

  it("when Debian's Net::Akismet is given SERVICE_HOST, it verifies the key, checks comments and reports them", async () => {
    const { key } = await suite.clientWithKey('perl');
    const host = `${HOST}:${port()}`;
    const perl = async (action: string, text = '') =>
      (
        await promisify(execFile)('perl', [join(__dirname, 'net-akismet.pl'), key, host, action, text])
      ).stdout.trim();
    await withHostsEntry(`${HOST} ${key}.${HOST}`, async () => {
      expect(await perl('verify')).toBe('valid');
      expect(await perl('check', comment(30))).toBe('false');
      expect(await perl('check', 'spam-check-test-spam')).toBe('true');
      expect(await perl('spam', comment(30))).toBe('sent');
      expect(await perl('check', comment(31))).toBe('true');
      expect(await perl('ham', comment(31))).toBe('sent');
      expect(await perl('check', comment(32))).toBe('false');
    });
    expect(readFileSync(HOSTS_FILE, 'utf8')).not.toContain(key);
  });

  it("when Debian WordPress's Akismet plugin is pointed at the service by the documented must-use plugin, it checks comments and reports a moderator's Spam", async () => {
    const { id, key } = await suite.clientWithKey('wordpress');
    const site = await startAkismetSite(suite.state.stack.gateway, key);
    try {
      // The status WordPress gave the comment and the answer Akismet's plugin recorded for it.
      const judged = async (comment: number) => {
        const { status, meta } = await site.php('comment', String(comment));
        return { status, akismet: meta.akismet_result };
      };
      const anna = { name: 'Anna Schmidt', email: 'anna.schmidt@example.org' };
      const ham = await postComment(site, anna, comment(40));
      expect(await judged(ham)).toEqual({ status: 'approved', akismet: 'false' });
      const spam = await postComment(
        site,
        { name: 'Cheap', email: 'cheap@example.org' },
        'spam-check-test-spam',
      );
      expect(await judged(spam)).toEqual({ status: 'spam', akismet: 'true' });

      expect(await site.php('spam', String(ham))).toEqual({ ok: true });
      const reports = await suite.adminCall('GET', `/clients/${id}/feedback`);
      expect(recentFeedbackSchema.parse(reports.body).feedback).toEqual([
        expect.objectContaining({ label: 'spam', applied_to: expect.arrayContaining(['email', 'text']) }),
      ]);

      const ben = { name: 'Ben Weber', email: 'ben.weber@example.org' };
      expect(await judged(await postComment(site, ben, comment(41)))).toEqual({
        status: 'spam',
        akismet: 'true',
      });
      // Debian's installer warns on its own; the Akismet plugin and the must-use plugin must not.
      const warnings = site
        .debugLog()
        .split('\n')
        .filter((line) => /PHP (Fatal|Warning)/.test(line) && /akismet|mu-plugins/.test(line));
      expect(warnings).toEqual([]);
    } finally {
      await site.remove();
    }
  });
});
