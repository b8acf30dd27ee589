import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { freePort, startService, stopService, type ServiceProcess } from '@spam-check/process-kit';
import { ERROR_CATALOGUE, SUPPORTED_LANGUAGES, type Language } from '@spam-check/contracts';
import { json, obtainToken, startAuth, startGatewayForTest, type Running } from './support/servers';

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
