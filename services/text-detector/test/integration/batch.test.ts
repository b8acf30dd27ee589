import { textResultSchema } from '@spam-check/contracts';
import { check, checkBatch, detectorForSuite } from './helpers';

describe('POST /v1/check/batch (the gateway batch check behind it)', () => {
  const detector = detectorForSuite();

  it('when texts are sent, each gets the result of the single check, in order', async () => {
    const items = [
      { title: 'Frage', body: 'Wann öffnet die Bibliothek am Samstag?' },
      { title: 'WIN MONEY NOW', body: 'Click http://bit.ly/x now!!! Earn $$$ fast, contact me on WhatsApp' },
      { title: 'Bonjour', body: 'Merci pour cet article.', sub_title: 'Lecteur' },
    ];
    const response = await checkBatch(detector.url, { items }, { 'x-request-id': 't-1' });
    expect(response.status).toBe(200);
    const results = response.body.results.map((result) => textResultSchema.parse(result));
    expect(results).toHaveLength(3);
    for (const [i, item] of items.entries()) {
      const single = (await check(detector.url, item)).body;
      expect(results[i]).toMatchObject({ verdict: single.verdict, score: single.score, request_id: 't-1' });
    }
  });

  it('when an item is invalid or there are more than 100, the whole call is 400', async () => {
    for (const body of [
      { items: [{ title: 'a', body: 'b' }, { title: 'no body' }] },
      { items: Array.from({ length: 101 }, () => ({ title: 'a', body: 'b' })) },
    ]) {
      const response = await checkBatch(detector.url, body);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('VALIDATION_FAILED');
    }
  });
});
