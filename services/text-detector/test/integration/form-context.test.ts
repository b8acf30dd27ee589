import { textResultSchema, type TextResult } from '@spam-check/contracts';
import { check, checkBatch, detectorForSuite } from './helpers';

const HAM = { title: 'Opening hours', body: 'When does the library open on Saturday? spam-check-test-ham' };

describe('POST /v1/check and /v1/check/batch with a form context (docs/design.md, Form context)', () => {
  const detector = detectorForSuite({});

  async function checked(body: unknown): Promise<TextResult> {
    const response = await check(detector.url, body);
    expect(response.status).toBe(200);
    return textResultSchema.parse(response.body);
  }
  const codes = (result: TextResult) => result.reasons.map((reason) => reason.code);

  it('when the honeypot is filled, the text is spam with score 1, decided by the rules', async () => {
    const result = await checked({ ...HAM, context: { honeypot: 'yes' } });
    expect(result).toMatchObject({ spam: true, verdict: 'spam', score: 1, engine: 'rules' });
    expect(codes(result)).toEqual(['TEXT_TEST_FIXTURE', 'FORM_HONEYPOT_FILLED']);
  });

  it('when the form came too fast from a crawler, a ham text becomes suspicious with both reasons', async () => {
    const result = await checked({
      ...HAM,
      context: { seconds_to_submit: 0.4, user_agent: 'Mozilla/5.0 (compatible; Googlebot/2.1)' },
    });
    expect(result.verdict).toBe('suspicious');
    expect(result.score).toBeGreaterThanOrEqual(0.5);
    expect(codes(result)).toEqual(['TEXT_TEST_FIXTURE', 'FORM_SUBMITTED_TOO_FAST', 'FORM_BOT_USER_AGENT']);
  });

  it('when batch items carry contexts, each item is judged by its own', async () => {
    const items = [
      { ...HAM, context: { seconds_to_submit: 30 } },
      { ...HAM, context: { honeypot: 'x' } },
    ];
    const invalid = { ...HAM, context: { seconds_to_submit: -3 } };
    // The detector's batch validates the whole list (the gateway sorts out invalid items before).
    expect((await checkBatch(detector.url, { items: [...items, invalid] })).status).toBe(400);
    const valid = await checkBatch(detector.url, { items });
    expect(valid.status).toBe(200);
    const results = valid.body.results.map((result) => textResultSchema.parse(result));
    expect(results.map((result) => result.verdict)).toEqual(['ham', 'spam']);
  });
});
