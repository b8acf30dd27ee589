import { gzipSync } from 'node:zlib';
import { GATEWAY, basic, introspect, passwordGrant, startAuth, type Harness, json } from './harness';

/** How the form endpoints read bodies: limits and errors, whichever way the body is encoded. */
describe('form bodies of the OAuth endpoints', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startAuth('memory', { MAX_BODY_BYTES: '1024' });
  });
  afterEach(async () => {
    await h.stop();
  });
  const post = (
    body: string | Buffer | ReadableStream<Uint8Array>,
    headers: Record<string, string> = {},
    path = '/oauth/introspect',
  ) =>
    fetch(`${h.url}${path}`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Authorization: basic(GATEWAY.id, GATEWAY.secret),
        ...headers,
      },
      body,
      ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
    });
  const stream = (text: string) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < text.length; i += 256) controller.enqueue(Buffer.from(text.slice(i, i + 256)));
        controller.close();
      },
    });

  it('when a form body is over MAX_BODY_BYTES, by its length or chunked, it answers the 413 problem', async () => {
    const big = `token=${'a'.repeat(2000)}`;
    for (const body of [big, stream(big)]) {
      for (const path of ['/oauth/introspect', '/oauth/token']) {
        const response = await post(body instanceof ReadableStream ? stream(big) : body, {}, path);
        expect(response.status).toBe(413);
        expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect((await json(response)).status).toBe(413);
      }
    }
  });

  it('when a form has more than 100 parameters, or repeats one, it answers 400 invalid_request', async () => {
    const many = await post(Array.from({ length: 101 }, (_, i) => `p${i}=1`).join('&'));
    expect(many.status).toBe(400);
    expect(await json(many)).toMatchObject({ error: 'invalid_request' });
    const repeated = await post('token=a&token=b');
    expect(repeated.status).toBe(400);
    expect(await json(repeated)).toMatchObject({
      error: 'invalid_request',
      error_description: 'A parameter was sent more than once',
    });
  });

  it('when the form is empty or absent, it answers 400 invalid_request', async () => {
    for (const body of ['', 'token=']) {
      const response = await post(body);
      expect(response.status).toBe(400);
      expect((await json(response)).error).toBe('invalid_request');
    }
    const none = await fetch(`${h.url}/oauth/introspect`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Authorization: basic(GATEWAY.id, GATEWAY.secret),
      },
    });
    expect(none.status).toBe(400);
    expect((await json(none)).error).toBe('invalid_request');
  });

  it('when the form is UTF-8 (any spelling), chunked, gzipped, Latin-1 or has bad escapes, it reads it', async () => {
    const token = (await passwordGrant(h)).body.access_token;
    const active = async (response: Response) => {
      expect(response.status).toBe(200);
      return (await json(response)).active;
    };
    expect(await active(await post(`token=${token}`))).toBe(true);
    expect(
      await active(
        await post(`token=${token}`, { 'Content-Type': 'Application/X-WWW-Form-URLEncoded; charset=UTF-8' }),
      ),
    ).toBe(true);
    expect(await active(await post(stream(`token=${token}&token_type_hint=access_token`)))).toBe(true);
    expect(await active(await post(`\uFEFFtoken=${token}`))).toBe(true);
    expect(await active(await post(gzipSync(`token=${token}`), { 'Content-Encoding': 'gzip' }))).toBe(true);
    expect(
      await active(
        await post(`token=${token}`, {
          'Content-Type': 'application/x-www-form-urlencoded; charset=iso-8859-1',
        }),
      ),
    ).toBe(true);
    expect(await active(await post('token=%E0%A4%A&x=%'))).toBe(false);
    expect((await introspect(h, token)).body.active).toBe(true);
  });
});
