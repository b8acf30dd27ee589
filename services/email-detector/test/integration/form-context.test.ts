import { mailResultSchema, problemSchema } from '@spam-check/contracts';
import { detectorForSuite } from './support/start-service';

const BROWSER =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

describe('POST /v1/check with a form context (docs/design.md, Form context)', () => {
  const detector = detectorForSuite({ EMAIL_DNS_CHECK: 'off', FORM_MIN_SECONDS: '4' });

  async function check(body: unknown, language?: string) {
    const response = await detector.check(body, language ? { 'Accept-Language': language } : {});
    expect(response.status).toBe(200);
    return mailResultSchema.parse(response.body);
  }
  const codes = (result: { reasons: { code: string }[] }) => result.reasons.map((reason) => reason.code);

  it('when a person took their time in a browser with an empty honeypot, the context changes nothing', async () => {
    const plain = await check({ email: 'anna.schmidt@example.org' });
    const withContext = await check({
      email: 'anna.schmidt@example.org',
      context: { honeypot: '', seconds_to_submit: 12.5, user_agent: BROWSER },
    });
    expect(withContext).toMatchObject({ verdict: plain.verdict, score: plain.score });
    expect(codes(withContext)).toEqual(codes(plain));
  });

  it('when the honeypot is filled, the answer is spam with score 1, whatever the address', async () => {
    const result = await check({
      email: 'anna.schmidt@example.org',
      context: { honeypot: 'http://x.example' },
    });
    expect(result).toMatchObject({ spam: true, verdict: 'spam', score: 1 });
    expect(codes(result)).toContain('FORM_HONEYPOT_FILLED');
  });

  it('when the form was posted faster than FORM_MIN_SECONDS, it is at least suspicious, in the asked language', async () => {
    const result = await check(
      { email: 'anna.schmidt@example.org', context: { seconds_to_submit: 1.2 } },
      'de',
    );
    expect(result.verdict).toBe('suspicious');
    expect(result.score).toBeGreaterThanOrEqual(0.5);
    const reason = result.reasons.find((r) => r.code === 'FORM_SUBMITTED_TOO_FAST');
    expect(reason?.message).toContain('1.2 s');
    expect(reason?.message).toMatch(/Formular/);
    // 4 s is the configured minimum: not too fast.
    expect(
      codes(await check({ email: 'anna.schmidt@example.org', context: { seconds_to_submit: 4 } })),
    ).not.toContain('FORM_SUBMITTED_TOO_FAST');
  });

  it('when the user agent is an automation tool, it is at least suspicious; a spam verdict stays spam', async () => {
    const bot = await check({
      email: 'anna.schmidt@example.org',
      context: { user_agent: 'python-requests/2.32.3' },
    });
    expect(bot.verdict).toBe('suspicious');
    expect(codes(bot)).toContain('FORM_BOT_USER_AGENT');
    const spam = await check({
      email: 'spam@spam-check.test',
      context: { user_agent: 'HeadlessChrome/120' },
    });
    expect(spam).toMatchObject({ verdict: 'spam', score: 1 });
  });

  it('when a context value is out of range, it is a 400 VALIDATION_FAILED naming the field', async () => {
    for (const context of [
      { seconds_to_submit: -1 },
      { seconds_to_submit: 10_000_001 },
      { honeypot: 'x'.repeat(1001) },
      { user_agent: 'u'.repeat(513) },
      { honeypot: 5 },
    ]) {
      const response = await detector.check({ email: 'anna.schmidt@example.org', context });
      expect(response.status).toBe(400);
      const problem = problemSchema.parse(response.body);
      expect(problem.code).toBe('VALIDATION_FAILED');
      expect(problem.errors?.[0]?.path).toMatch(/^context\./);
    }
  });
});
