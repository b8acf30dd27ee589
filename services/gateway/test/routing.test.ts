import http from 'node:http';
import { brotliCompressSync, deflateSync, gunzipSync, gzipSync } from 'node:zlib';
import { freePort, startService, stopService, type ServiceProcess } from '@spam-check/process-kit';
import { ERROR_CATALOGUE, ERROR_CODES, SUPPORTED_LANGUAGES, type Language } from '@spam-check/contracts';
import {
  json,
  obtainToken,
  startAuth,
  startGatewayForTest,
  startScriptedServer,
  type Running,
} from './support/servers';
import { startStack, type Stack } from './support/stack';

/** A POST with headers fetch would refuse to send (Connection, Keep-Alive, TE, Upgrade, ...). */
function rawPost(
  baseUrl: string,
  path: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${baseUrl}${path}`,
      { method: 'POST', headers, agent: false },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** A GET that keeps the body as sent (fetch would decode a gzip body). */
function rawGet(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${baseUrl}${path}`, { headers, agent: false }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
      })
      .on('error', reject);
  });
}

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

describe('gateway in front of the real detectors: their validation, in the language of the caller', () => {
  let auth: Running;
  let detectors: ServiceProcess[];
  let gateway: Running;
  let token: string;
  const limits = { MAX_EMAIL_LENGTH: '64', MAX_TITLE_LENGTH: '50', MAX_BODY_BYTES: '4096' };

  beforeAll(async () => {
    auth = await startAuth();
    const env = {
      LOG_LEVEL: 'warn',
      EMAIL_DNS_CHECK: 'off',
      TEXT_LLM_MODE: 'never',
      REDIS_URL: undefined,
      AMQP_URL: undefined,
      ...limits,
    };
    detectors = await Promise.all([
      startService('email-detector', env, await freePort()),
      startService('text-detector', env, await freePort()),
    ]);
    gateway = await startGatewayForTest({
      AUTH_URL: auth.url,
      EMAIL_DETECTOR_URL: detectors[0]!.url,
      TEXT_DETECTOR_URL: detectors[1]!.url,
      ...limits,
    });
    token = await obtainToken(gateway.url);
  }, 60_000);

  afterAll(async () => {
    await gateway.stop();
    await Promise.all([auth.stop(), ...detectors.map(stopService)]);
  });

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${gateway.url}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...headers },
      body: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
    });

  it.each(SUPPORTED_LANGUAGES.map((language) => [language]))(
    'when a request fails validation under the %s prefix, the problem is in that language',
    async (language: Language) => {
      const response = await post(`/${language}api/v1/spam/text`, { title: 'no body' });
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
      const problem = await json(response);
      expect(problem).toMatchObject({
        code: 'VALIDATION_FAILED',
        status: 400,
        type: '/docs#error-VALIDATION_FAILED',
        title: ERROR_CATALOGUE.VALIDATION_FAILED.title[language],
        detail: ERROR_CATALOGUE.VALIDATION_FAILED.detail[language],
      });
      expect(problem.errors).toEqual([expect.objectContaining({ path: 'body' })]);
      expect(problem.request_id).toBe(response.headers.get('x-request-id'));
    },
  );

  it('when the body is malformed JSON, it is 400 MALFORMED_JSON in the language of the caller', async () => {
    const response = await post('/deapi/v1/spam/mail', '{"email":');
    expect(response.status).toBe(400);
    expect(await json(response)).toMatchObject({
      code: 'MALFORMED_JSON',
      detail: ERROR_CATALOGUE.MALFORMED_JSON.detail.de,
    });
  });

  it('when a field exceeds its configured limit or has the wrong type, it is 400 naming the field', async () => {
    const tooLong = await post('/api/v1/spam/mail', { email: `${'a'.repeat(60)}@example.org` });
    expect(tooLong.status).toBe(400);
    expect((await json(tooLong)).errors).toEqual([expect.objectContaining({ path: 'email' })]);
    const title = await post('/api/v1/spam/text', { title: 't'.repeat(51), body: '' });
    expect((await json(title)).errors).toEqual([expect.objectContaining({ path: 'title' })]);
    const wrongType = await post('/api/v1/spam/mail', { email: null });
    expect(wrongType.status).toBe(400);
    expect((await json(wrongType)).code).toBe('VALIDATION_FAILED');
  });

  const mailBody = JSON.stringify({ email: 'anna@example.org' });
  const hybridBody = JSON.stringify({ email: 'anna@example.org', title: 'Hello', body: 'A short note.' });
  const corrupt = (bytes: Buffer) => Buffer.concat([bytes.subarray(0, 12), Buffer.from('garbage bytes')]);

  it.each([
    ['/api/v1/spam/mail', 'gzip', gzipSync(mailBody)],
    ['/api/v1/spam/mail', 'gzip', corrupt(gzipSync(mailBody))],
    ['/api/v1/spam/text', 'deflate', corrupt(deflateSync('{"title":"t","body":"b"}'))],
    ['/api/v1/spam/text', 'br', brotliCompressSync('{"title":"t","body":"b"}')],
    ['/api/v1/spam/hybrid-check', 'gzip', corrupt(gzipSync(hybridBody))],
    ['/api/v1/spam/hybrid-check', 'x-unknown', Buffer.from(hybridBody)],
    ['/api/v1/spam/mail', 'identity, gzip', gzipSync(mailBody)],
  ])(
    'when %s gets a body with Content-Encoding %s (valid or corrupt), it is 415 UNSUPPORTED_CONTENT_ENCODING',
    async (path, encoding, body) => {
      const response = await post(path, body, { 'Content-Encoding': encoding });
      expect(response.status).toBe(415);
      expect(response.headers.get('accept-encoding')).toBe('identity');
      expect(await json(response)).toMatchObject({
        code: 'UNSUPPORTED_CONTENT_ENCODING',
        request_id: response.headers.get('x-request-id'),
      });
    },
  );

  it('when a body says Content-Encoding: identity, it is read as it is', async () => {
    const response = await post('/api/v1/spam/mail', mailBody, { 'Content-Encoding': 'identity' });
    expect(response.status).toBe(200);
    expect((await json(response)).email.normalized).toBe('anna@example.org');
  });

  const invalidUtf8 = (json: string) => {
    const [head, tail] = json.split('@') as [string, string];
    return Buffer.concat([Buffer.from(head), Buffer.from([0xff, 0xc3, 0x28]), Buffer.from(`@${tail}`)]);
  };

  it.each([
    ['/api/v1/spam/mail', invalidUtf8(mailBody)],
    ['/api/v1/spam/text', invalidUtf8('{"title":"t@","body":"b"}')],
    ['/api/v1/spam/hybrid-check', invalidUtf8(hybridBody)],
  ])(
    'when %s gets a body that is not valid UTF-8, it is 400 MALFORMED_JSON, never judged with U+FFFD',
    async (path, body) => {
      const response = await post(path, body);
      expect(response.status).toBe(400);
      expect((await json(response)).code).toBe('MALFORMED_JSON');
    },
  );

  it('when the body names a charset other than UTF-8, it is 415 (RFC 8259 §8.1)', async () => {
    const response = await post('/api/v1/spam/hybrid-check', hybridBody, {
      'Content-Type': 'application/json; charset=iso-8859-1',
    });
    expect(response.status).toBe(415);
    expect((await json(response)).code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const utf8 = await post('/api/v1/spam/mail', mailBody, {
      'Content-Type': 'application/json; charset=UTF-8',
    });
    expect(utf8.status).toBe(200);
  });

  it.each([
    ['email-detector', 0, mailBody],
    ['text-detector', 1, '{"title":"t@","body":"b"}'],
  ])(
    'when the %s is called directly with a corrupt gzip body or invalid UTF-8, its kit parser answers 415 and 400',
    async (_name, index, body) => {
      const check = (payload: Buffer, headers: Record<string, string> = {}) =>
        fetch(`${detectors[index]!.url}/v1/check`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...headers },
          body: payload,
        });
      const gzipped = await check(corrupt(gzipSync(body)), { 'Content-Encoding': 'gzip' });
      expect(gzipped.status).toBe(415);
      expect((await json(gzipped)).code).toBe('UNSUPPORTED_CONTENT_ENCODING');
      const notUtf8 = await check(invalidUtf8(body));
      expect(notUtf8.status).toBe(400);
      expect((await json(notUtf8)).code).toBe('MALFORMED_JSON');
      const fine = await check(Buffer.from(body));
      expect(fine.status).toBe(200);
    },
  );
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
