import { gunzipSync } from 'node:zlib';
import { ERROR_CATALOGUE, ERROR_CODES } from '@spam-check/contracts';
import { json, obtainToken, startGatewayForTest, type Running } from './support/servers';
import { startStack, type Stack } from './support/stack';
import { rawPost, rawGet } from './support/raw-http';

describe('gateway routing, language prefixes and request checks', () => {
  let stack: Stack;
  let gateway: Running;
  let token: string;

  beforeAll(async () => {
    stack = await startStack();
    gateway = await stack.gateway({ MAX_EMAIL_LENGTH: '64', MAX_BODY_BYTES: '4096' });
    token = await obtainToken(gateway.url);
  });

  afterAll(() => stack.stop());

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${gateway.url}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  it.each([
    ['/api', 'en'],
    ['/deapi', 'de'],
    ['/de/api', 'de'],
    ['/frapi', 'fr'],
    ['/fr/api', 'fr'],
    ['/enapi', 'en'],
    ['/en/api', 'en'],
  ])(
    'when the mail check is called under %s, it reaches the detector in language %s',
    async (prefix, language) => {
      const before = stack.email.requests.length;
      const response = await post(`${prefix}/v1/spam/mail`, { email: 'someone@example.org' });
      expect(response.status).toBe(200);
      expect((await json(response)).spam).toBe(false);
      expect(stack.email.requests).toHaveLength(before + 1);
      expect(stack.email.requests.at(-1)!.url).toBe('/v1/check');
      expect(stack.email.requests.at(-1)!.headers['accept-language']).toBe(language);
    },
  );

  it('when there is no prefix, Accept-Language picks the language', async () => {
    const response = await post(
      '/api/v1/spam/text',
      { title: '', body: '' },
      { 'Accept-Language': 'fr-CH, de;q=0.5' },
    );
    expect(response.status).toBe(200);
    expect(stack.text.requests.at(-1)!.headers['accept-language']).toBe('fr');
  });

  it('when the prefix and Accept-Language disagree, the prefix wins', async () => {
    await post('/deapi/v1/spam/mail', { email: 'x@example.org' }, { 'Accept-Language': 'fr' });
    expect(stack.email.requests.at(-1)!.headers['accept-language']).toBe('de');
  });

  it.each([
    '/itapi/v1/spam/mail',
    '/it/api/v1/spam/mail',
    '/xxoauth/token',
    '/DEapi/v1/spam/mail',
    '/d/api/v1/spam/mail',
  ])('when the prefix of %s is not a configured language, it is 404', async (path) => {
    const before = stack.email.requests.length;
    const response = await post(path, { email: 'someone@example.org' });
    expect(response.status).toBe(404);
    expect((await json(response)).code).toBe('NOT_FOUND');
    expect(stack.email.requests).toHaveLength(before);
  });

  it('when a path under a valid prefix does not exist, it is 404 in that language', async () => {
    const response = await post('/frapi/v1/spam/unknown', {});
    expect(response.status).toBe(404);
    expect((await json(response)).detail).toBe(ERROR_CATALOGUE.NOT_FOUND.detail.fr);
  });

  it('when the internal introspection endpoint is asked through the gateway, it is 404', async () => {
    const response = await fetch(`${gateway.url}/oauth/introspect`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `token=${token}`,
    });
    expect(response.status).toBe(404);
  });

  it.each([
    '/api/v1/spam/mail',
    '/deapi/v1/spam/text',
    '/fr/api/v1/spam/hybrid-check',
    '/deoauth/token',
    '/oauth/revoke',
  ])('when %s is called with GET, it is 405 with Allow: POST', async (path) => {
    const response = await fetch(`${gateway.url}${path}`, { headers: { Authorization: `Bearer ${token}` } });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect((await json(response)).code).toBe('METHOD_NOT_ALLOWED');
  });

  it('when the body is not JSON, it is 415', async () => {
    const response = await post('/api/v1/spam/mail', 'email=a@b.c', { 'Content-Type': 'text/plain' });
    expect(response.status).toBe(415);
    expect((await json(response)).code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('when the body is larger than MAX_BODY_BYTES, it is 413 and the detector is not called', async () => {
    const before = stack.email.requests.length;
    const response = await post('/api/v1/spam/mail', { email: 'a@example.org', padding: 'x'.repeat(5000) });
    expect(response.status).toBe(413);
    expect((await json(response)).code).toBe('PAYLOAD_TOO_LARGE');
    expect(stack.email.requests).toHaveLength(before);
  });

  it('when a chunked body grows past MAX_BODY_BYTES, it is 413 and the detector is not called', async () => {
    const before = stack.email.requests.length;
    const chunk = new TextEncoder().encode(`{"email":"a@example.org","padding":"${'x'.repeat(3000)}`);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(chunk);
        controller.enqueue(chunk);
        controller.close();
      },
    });
    const response = await fetch(`${gateway.url}/api/v1/spam/mail`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body,
      duplex: 'half',
    });
    expect(response.status).toBe(413);
    expect((await json(response)).code).toBe('PAYLOAD_TOO_LARGE');
    expect(stack.email.requests).toHaveLength(before);
  });

  it('when a check is proxied, the body goes unchanged with request id, language and client id, and the token does not', async () => {
    const response = await post(
      '/deapi/v1/spam/mail',
      { email: '', unknown_field: 'dropped' },
      { 'X-Request-Id': 'req-forward-1', 'X-Client-Id': 'spoofed' },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('req-forward-1');
    expect((await json(response)).request_id).toBe('req-forward-1');
    const seen = stack.email.requests.at(-1)!;
    expect(seen.headers).toMatchObject({
      'x-request-id': 'req-forward-1',
      'accept-language': 'de',
      'x-client-id': 'test-client',
      'content-type': 'application/json',
    });
    expect(seen.headers.authorization).toBeUndefined();
    // Unknown fields travel with the bytes; the detector ignores them.
    expect(seen.body).toBe('{"email":"","unknown_field":"dropped"}');
  });

  it('when a client sends hop-by-hop headers, none reaches the detector, nor any header its Connection names', async () => {
    const answer = await rawPost(
      gateway.url,
      '/api/v1/spam/mail',
      JSON.stringify({ email: 'a@example.org' }),
      {
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
        Connection: 'keep-alive, X-Hop-Secret',
        'X-Hop-Secret': 'for the first hop only',
        'Keep-Alive': 'timeout=5',
        TE: 'trailers',
        Trailer: 'X-Checksum',
        Upgrade: 'h2c',
        'Proxy-Authorization': 'Basic cHJveHk6c2VjcmV0',
        'Proxy-Connection': 'keep-alive',
        'X-Kept': 'end to end',
      },
    );
    expect(answer.status).toBe(200);
    const seen = stack.email.requests.at(-1)!.headers;
    for (const name of [
      'x-hop-secret',
      'keep-alive',
      'te',
      'trailer',
      'upgrade',
      'proxy-authorization',
      'proxy-connection',
    ])
      expect(seen[name]).toBeUndefined();
    expect(seen.connection ?? '').not.toMatch(/x-hop-secret/i);
    expect(seen['x-kept']).toBe('end to end');
  });

  it('when the text check is called, the body reaches the text detector', async () => {
    const response = await post('/frapi/v1/spam/text', { title: 'T', body: 'B', sub_title: 'S' });
    expect(response.status).toBe(200);
    expect(JSON.parse(stack.text.requests.at(-1)!.body)).toEqual({ title: 'T', body: 'B', sub_title: 'S' });
    expect(stack.text.requests.at(-1)!.headers['accept-language']).toBe('fr');
  });

  it('serves the OpenAPI document at /openapi.json', async () => {
    const response = await fetch(`${gateway.url}/openapi.json`);
    expect(response.status).toBe(200);
    const document = await json(response);
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/spam/mail',
        '/api/v1/spam/text',
        '/api/v1/spam/hybrid-check',
        '/oauth/token',
      ]),
    );
  });

  it('serves the reference page at /docs from its own assets, with an anchor for every problem type', async () => {
    const response = await fetch(`${gateway.url}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await response.text();
    for (const code of ERROR_CODES) expect(html).toContain(`id="error-${code}"`);
    expect(html).toContain('EMAIL_DISPOSABLE_DOMAIN');
    // Every script, stylesheet and icon is the gateway's own; nothing inline, nothing from another host.
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(sources).toEqual(expect.arrayContaining([expect.stringMatching(/swagger-ui-bundle\.js$/)]));
    for (const source of sources) expect(source).toMatch(/^\/|^#/);
    expect(html).not.toMatch(/<script>|<style|\sstyle="|\son[a-z]+="/);
  });

  it('when /docs is asked for, it sends a strict Content-Security-Policy, refuses framing and sniffing, and revalidates', async () => {
    const response = await fetch(`${gateway.url}/docs`);
    const policy = Object.fromEntries(
      (response.headers.get('content-security-policy') ?? '').split('; ').map((directive) => {
        const [name, ...values] = directive.split(' ');
        return [name, values.join(' ')];
      }),
    );
    expect(policy).toEqual({
      'default-src': "'none'",
      'script-src': "'self'",
      'style-src': "'self'",
      'img-src': "'self' data:",
      'connect-src': "'self'",
      'base-uri': "'none'",
      'form-action': "'none'",
      'frame-ancestors': "'none'",
    });
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const etag = response.headers.get('etag');
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    // Not fetch: it adds `Cache-Control: no-cache` to a conditional request, which asks for a full answer.
    const again = await rawGet(gateway.url, '/docs', { 'If-None-Match': etag ?? '' });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('serves the Swagger UI bundle under its content hash, immutable, gzipped on request, and nothing else under /docs/assets', async () => {
    const html = await (await fetch(`${gateway.url}/docs`)).text();
    const bundle = /src="(\/docs\/assets\/[0-9a-f]{16}\/swagger-ui-bundle\.js)"/.exec(html)?.[1];
    expect(bundle).toBeDefined();
    const plain = await fetch(`${gateway.url}${bundle}`, { headers: { 'Accept-Encoding': 'identity' } });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(plain.headers.get('x-content-type-options')).toBe('nosniff');
    expect(plain.headers.get('content-encoding')).toBeNull();
    const body = await plain.text();
    expect(body).toContain('SwaggerUIBundle');
    const zipped = await rawGet(gateway.url, bundle ?? '', { 'Accept-Encoding': 'gzip' });
    expect(zipped.status).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(zipped.body).toString()).toBe(body);
    expect(zipped.body.length).toBeLessThan(body.length / 2);
    expect(zipped.headers.etag).not.toBe(plain.headers.get('etag'));
    const revalidated = await rawGet(gateway.url, bundle ?? '', {
      'If-None-Match': plain.headers.get('etag') ?? '',
      'Accept-Encoding': 'identity',
    });
    expect(revalidated.status).toBe(304);
    const revalidatedZipped = await rawGet(gateway.url, bundle ?? '', {
      'If-None-Match': zipped.headers.etag ?? '',
      'Accept-Encoding': 'gzip',
    });
    expect(revalidatedZipped.status).toBe(304);
    for (const path of [
      bundle?.replace(/[0-9a-f]{16}/, '0000000000000000'),
      bundle?.replace('swagger-ui-bundle.js', 'package.json'),
      bundle?.replace('swagger-ui-bundle.js', '..%2Fpackage.json'),
    ]) {
      const refused = await fetch(`${gateway.url}${path}`);
      expect(refused.status).toBe(404);
      expect(refused.headers.get('content-type')).toContain('application/problem+json');
    }
  });
});

describe('gateway with a subset of languages', () => {
  it('when a supported language is not enabled in LANGUAGES, its prefix is 404', async () => {
    const gateway = await startGatewayForTest({ LANGUAGES: 'de,en', AUTH_URL: 'http://127.0.0.1:9' });
    try {
      const french = await fetch(`${gateway.url}/frapi/v1/spam/mail`, { method: 'POST' });
      expect(french.status).toBe(404);
      const german = await fetch(`${gateway.url}/deapi/v1/spam/mail`, { method: 'POST' });
      expect(german.status).toBe(401);
      expect((await json(german)).detail).toBe(ERROR_CATALOGUE.UNAUTHORIZED.detail.de);
    } finally {
      await gateway.stop();
    }
  });
});
