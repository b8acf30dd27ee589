import { mailResultSchema } from '@spam-check/contracts';
import { detectorForSuite } from './support/start-service';

async function postBatch(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${url}/v1/check/batch`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { results: unknown[]; code?: string } };
}

describe('POST /v1/check/batch (the gateway batch check behind it), DNS off', () => {
  const detector = detectorForSuite({ EMAIL_DNS_CHECK: 'off', MAX_BATCH_BODY_BYTES: '2000000' });

  it('when 1,000 addresses are sent, each gets the result of the single check, in order, in the caller language', async () => {
    const items = Array.from({ length: 1000 }, (_, i) => ({
      email: i % 2 ? `user${i}@mailinator.com` : `user${i}@example.org`,
    }));
    const response = await postBatch(
      detector.url,
      { items },
      { 'accept-language': 'de', 'x-request-id': 'b-1' },
    );
    expect(response.status).toBe(200);
    const results = response.body.results.map((result) => mailResultSchema.parse(result));
    expect(results.map((result) => result.email.input)).toEqual(items.map((item) => item.email));
    const single = (await detector.check({ email: items[1]!.email }, { 'accept-language': 'de' })).body;
    expect(results[1]).toMatchObject({ verdict: single.verdict, score: single.score, request_id: 'b-1' });
    expect(results[1]!.reasons).toEqual(single.reasons);
  });

  it('when an item is invalid or the list is empty or too long, the whole call is 400', async () => {
    for (const body of [
      { items: [{ email: 'a@example.org' }, { email: 42 }] },
      { items: [] },
      { items: Array.from({ length: 1001 }, () => ({ email: 'a@example.org' })) },
    ]) {
      const response = await postBatch(detector.url, body);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('VALIDATION_FAILED');
    }
  });

  it('when the body is larger than the single-check limit but within MAX_BATCH_BODY_BYTES, it is read', async () => {
    const items = Array.from({ length: 1000 }, (_, i) => ({ email: `${'a'.repeat(400)}${i}@example.org` }));
    expect(JSON.stringify({ items }).length).toBeGreaterThan(256 * 1024);
    expect((await postBatch(detector.url, { items })).status).toBe(200);
    expect((await detector.check({ email: 'x'.repeat(300 * 1024) })).status).toBe(413);
  });

  it('when the body is larger than MAX_BATCH_BODY_BYTES, it is 413', async () => {
    const items = Array.from({ length: 1000 }, () => ({ email: `${'a'.repeat(2100)}@example.org` }));
    const response = await postBatch(detector.url, { items });
    expect(response.status).toBe(413);
    expect(response.body.code).toBe('PAYLOAD_TOO_LARGE');
  });
});
