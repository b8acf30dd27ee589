import { OAUTH_METADATA_PATH } from '@spam-check/contracts';
import { obtainToken } from './support/servers';
import { startStack, type Stack } from './support/stack';

describe('OAuth authorization server metadata (RFC 8414)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.stop());

  it('when a client asks for the metadata, the issuer is the address it asked and the token endpoint it names issues tokens', async () => {
    const gateway = await stack.gateway();
    const answer = await fetch(`${gateway.url}${OAUTH_METADATA_PATH}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    const metadata = (await answer.json()) as Record<string, unknown>;
    expect(metadata).toEqual({
      issuer: gateway.url,
      token_endpoint: `${gateway.url}/oauth/token`,
      revocation_endpoint: `${gateway.url}/oauth/revoke`,
      grant_types_supported: ['password', 'refresh_token', 'client_credentials'],
      scopes_supported: ['spam:check', 'spam:admin'],
      response_types_supported: [],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      service_documentation: `${gateway.url}/docs`,
    });
    const endpoint = new URL(String(metadata.token_endpoint));
    await expect(obtainToken(endpoint.origin, undefined, endpoint.pathname)).resolves.toMatch(/\S{40,}/);
  });

  it('when the gateway is behind a trusted proxy, the issuer is the forwarded scheme and host', async () => {
    const gateway = await stack.gateway({ TRUSTED_PROXY_HOPS: '1' });
    const answer = await fetch(`${gateway.url}${OAUTH_METADATA_PATH}`, {
      headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'spam.example.org' },
    });
    const metadata = (await answer.json()) as { issuer: string; token_endpoint: string };
    expect(metadata.issuer).toBe('https://spam.example.org');
    expect(metadata.token_endpoint).toBe('https://spam.example.org/oauth/token');
  });

  it('when no proxy is trusted, forwarded headers do not change the issuer', async () => {
    const gateway = await stack.gateway();
    const answer = await fetch(`${gateway.url}${OAUTH_METADATA_PATH}`, {
      headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'evil.example' },
    });
    expect(((await answer.json()) as { issuer: string }).issuer).toBe(gateway.url);
  });

  it('when the metadata is posted to, the answer is 405 with Allow', async () => {
    const gateway = await stack.gateway();
    const answer = await fetch(`${gateway.url}${OAUTH_METADATA_PATH}`, { method: 'POST' });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('GET, HEAD');
    expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });
});
