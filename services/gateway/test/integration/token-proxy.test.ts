import { startGatewayForTest, startScriptedServer } from './support/servers';
import { rawPost } from './support/raw-http';

describe('gateway token endpoint proxy and hop-by-hop headers', () => {
  it('when a token request carries hop-by-hop headers, the auth service gets none, and none of its own comes back', async () => {
    // The auth service is outside the gateway: a recording server plays it here to show what it receives.
    const auth = await startScriptedServer((_req, res) => {
      res.writeHead(200, {
        'Content-Type': 'application/json',
        'Cache-Control': 'no-store',
        Connection: 'keep-alive, X-Upstream-Hop',
        'X-Upstream-Hop': 'auth to gateway only',
        'Keep-Alive': 'timeout=1',
      });
      res.end(JSON.stringify({ access_token: 'a', token_type: 'Bearer', expires_in: 60 }));
    });
    const gateway = await startGatewayForTest({ AUTH_URL: auth.url });
    try {
      const answer = await rawPost(gateway.url, '/oauth/token', 'grant_type=password', {
        'Content-Type': 'application/x-www-form-urlencoded',
        Connection: 'keep-alive, X-Hop-Secret',
        'X-Hop-Secret': 'for the first hop only',
        TE: 'trailers',
        'Proxy-Authorization': 'Basic cHJveHk6c2VjcmV0',
      });
      expect(answer.status).toBe(200);
      const seen = auth.requests.at(-1)!.headers;
      for (const name of ['x-hop-secret', 'te', 'proxy-authorization']) expect(seen[name]).toBeUndefined();
      expect(seen['x-forwarded-for']).toBeDefined();
      expect(answer.headers['x-upstream-hop']).toBeUndefined();
      expect(answer.headers['keep-alive']).not.toBe('timeout=1');
      expect(answer.headers.connection).toBe('keep-alive');
    } finally {
      await gateway.stop();
      await auth.stop();
    }
  });
});

describe("gateway token endpoint proxy: the operator console's calls", () => {
  it("passes on the browser's address that the console names, and nobody else's", async () => {
    const auth = await startScriptedServer((_req, res) => {
      res.writeHead(400, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
      res.end(JSON.stringify({ error: 'invalid_grant' }));
    });
    const consoleClient = { id: 'console-routing', secret: 'console-routing-secret' };
    const gateway = await startGatewayForTest({
      AUTH_URL: auth.url,
      CONSOLE_CLIENT_ID: consoleClient.id,
      CONSOLE_CLIENT_SECRET: consoleClient.secret,
    });
    const basic = (id: string, secret: string) =>
      `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
    const forwardedBy = async (authorization: string) => {
      await rawPost(gateway.url, '/oauth/token', 'grant_type=password&username=a&password=b', {
        'Content-Type': 'application/x-www-form-urlencoded',
        Authorization: authorization,
        'X-Forwarded-For': '203.0.113.9',
      });
      return auth.requests.at(-1)!.headers['x-forwarded-for'];
    };
    try {
      expect(await forwardedBy(basic(consoleClient.id, consoleClient.secret))).toBe('203.0.113.9');
      // TRUSTED_PROXY_HOPS=0: anyone else's X-Forwarded-For, a wrong console secret included, is not believed.
      expect(await forwardedBy(basic(consoleClient.id, 'a-guess'))).toMatch(/127\.0\.0\.1$/);
      expect(await forwardedBy(basic('web', 'web-secret'))).toMatch(/127\.0\.0\.1$/);
    } finally {
      await gateway.stop();
      await auth.stop();
    }
  });
});
