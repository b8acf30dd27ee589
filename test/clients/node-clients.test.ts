import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { AkismetClient as AkismetApiClient } from 'akismet-api';
import { AkismetClient } from 'akismet';
import { akismetStackForSuite } from '../integration/e2e/akismet-stack';

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
    const call = <T>(run: (done: (error: Error | null, value?: T) => void) => void) =>
      new Promise<T | undefined>((resolve, reject) =>
        run((error, value) => (error ? reject(error) : resolve(value))),
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
});
