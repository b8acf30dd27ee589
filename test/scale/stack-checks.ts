import { randomUUID } from 'node:crypto';
import {
  checkListSchema,
  clientStatsSchema,
  hybridResultSchema,
  mailResultSchema,
  textResultSchema,
} from '@spam-check/contracts';
import { within } from '../integration/e2e/client';
import type { StackOnRedis } from './stack';

/** A step-by-step hybrid check whose address was spam: answered, and the text never asked. */
export function expectTextSkipped(answer: { status: number; body: unknown }): void {
  expect(answer.status).toBe(200);
  expect(hybridResultSchema.parse(answer.body)).toMatchObject({
    mode: 'step_by_step',
    spam: true,
    text: null,
    skipped: ['text'],
  });
}

const codes = (result: { reasons: { code: string }[] }) => result.reasons.map((reason) => reason.code);

/**
 * The stack's end-to-end checks, as a client and an operator use it, on whatever Redis `stack()` was started
 * against: a token, mail, text and hybrid checks in both modes, a report that teaches, the review list, client
 * settings and usage.
 */
export function stackEndToEndChecks(stack: () => StackOnRedis): void {
  it('when a client checks mail, text and hybrid (parallel and step by step), each answer is right', async () => {
    const { check } = stack();
    const mail = await check('/deapi/v1/spam/mail', { email: 'spam@spam-check.test' });
    expect(mail.status).toBe(200);
    expect(mailResultSchema.parse(mail.body)).toMatchObject({ verdict: 'spam' });
    const text = await check('/api/v1/spam/text', { title: 'Frage', body: 'Wann öffnet die Bibliothek?' });
    expect(text.status).toBe(200);
    expect(textResultSchema.parse(text.body).verdict).not.toBe('spam');
    const parallel = await check('/api/v1/spam/hybrid-check', {
      email: 'ham@spam-check.test',
      title: 'Chor',
      body: 'Der Chor probt ab Oktober dienstags im Gemeindesaal.',
    });
    expect(parallel.status).toBe(200);
    expect(hybridResultSchema.parse(parallel.body)).toMatchObject({ mode: 'parallel', skipped: [] });
    const stepByStep = await check(
      '/api/v1/spam/hybrid-check',
      { email: 'spam@spam-check.test', title: 'Hallo', body: 'Schöner Beitrag.' },
      { 'X-Internal-Step-By-Step': 'true' },
    );
    expectTextSkipped(stepByStep);
  });

  it('when a client reports a text check as spam, the same text is spam for it at once and the review list shows the report', async () => {
    const { check, run } = stack();
    const body = `Günstige Kredite ohne Schufa ${randomUUID()}: jetzt anfragen, Auszahlung in 24 Stunden.`;
    const before = textResultSchema.parse((await check('/api/v1/spam/text', { title: run, body })).body);
    expect(codes(before)).not.toContain('TEXT_REPORTED_SPAM');
    const reported = await check('/api/v1/spam/feedback', { check_id: before.id, label: 'spam' });
    expect(reported.status).toBe(200);
    expect(reported.body).toMatchObject({ check_id: before.id, applied_to: ['text'] });
    const after = await within(
      5000,
      () => check('/api/v1/spam/text', { title: run, body }),
      (answer) => answer.status === 200 && answer.body.verdict === 'spam',
    );
    expect(codes(textResultSchema.parse(after.body))).toContain('TEXT_REPORTED_SPAM');

    const review = await stack().list('/api/v1/checks?kind=text&reported=true');
    expect(review.status).toBe(200);
    const items = checkListSchema.parse(review.body).items;
    expect(items.find((item) => item.id === before.id)?.report).toMatchObject({ label: 'spam' });
  });

  it('when an operator changes a client setting and reads its usage, the check follows the setting and the usage counts it', async () => {
    const { admin, check, client, run } = stack();
    const domain = `denied-${run}.example`;
    const settings = await admin('PUT', `/api/v1/admin/clients/${client.id}/settings`, {
      mail: { deny: [domain] },
    });
    expect(settings.status).toBe(200);
    const denied = await within(
      5000,
      () => check('/api/v1/spam/mail', { email: `a@${domain}` }),
      (answer) => answer.status === 200 && answer.body.verdict === 'spam',
    );
    expect(codes(mailResultSchema.parse(denied.body))).toContain('EMAIL_CLIENT_DENY_LISTED');
    const stats = await within(
      5000,
      () => admin('GET', `/api/v1/admin/clients/${client.id}/stats?interval=hour`),
      (answer) => answer.status === 200 && JSON.stringify(answer.body).includes('EMAIL_CLIENT_DENY_LISTED'),
    );
    expect(stats.status).toBe(200);
    const usage = clientStatsSchema.parse(stats.body);
    expect(usage.top_reasons.map((reason) => reason.code)).toContain('EMAIL_CLIENT_DENY_LISTED');
    expect(usage.totals.mail.spam).toBeGreaterThanOrEqual(1);
  });
}
