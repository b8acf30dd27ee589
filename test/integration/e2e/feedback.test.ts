import { randomUUID } from 'node:crypto';
import {
  feedbackResultSchema,
  hybridResultSchema,
  mailResultSchema,
  problemSchema,
  textResultSchema,
} from '@spam-check/contracts';
import { CAMPAIGN, VARIANT } from './campaign-texts';
import { feedbackStackForSuite } from './feedback-stack';

// Feedback through the gateway, with two clients of one run: what one reports changes its
// own verdicts at once and nobody else's. Once with Redis and RabbitMQ (step-by-step hybrid checks over RPC),
// once in embedded mode (memory, step-by-step over HTTP).

const codes = (result: { reasons: { code: string }[] }) => result.reasons.map((reason) => reason.code);

/** Ten texts on ten subjects: none is a near-duplicate of another. */
const SUBJECTS = [
  'Der Chor probt ab Oktober dienstags im Gemeindesaal, neue Stimmen sind willkommen.',
  'Kann mir jemand sagen, welches Öl ich für einen alten Rasenmäher nehmen soll?',
  'La bibliothèque du quartier prolonge ses horaires pendant les vacances scolaires.',
  'Our football team is looking for a goalkeeper for the Sunday league this season.',
  'Die Baustelle an der Hauptstraße dauert laut Stadt noch bis Ende März.',
  'Quelqu’un connaît-il un bon réparateur de vélos électriques près de la gare ?',
  'The pottery workshop has two free places left for the beginners course in May.',
  'Im Kleingartenverein werden die Wasseruhren am Samstag abgelesen.',
  'Le marché de Noël ouvrira le premier week-end de décembre sur la place centrale.',
  'Does anyone have experience with heat pumps in houses built before 1960?',
];

describe.each(['redis', 'embedded'] as const)('feedback through the gateway (%s)', (mode) => {
  const { post, run } = feedbackStackForSuite(mode);

  it('when a client reports a mail check as spam, the same address (other case, +tag) is spam for it at once, not for another client', async () => {
    const address = `promo.sender.${run}@example.org`;
    const before = mailResultSchema.parse(
      (await post('first', '/deapi/v1/spam/mail', { email: address })).body,
    );
    expect(before.verdict).not.toBe('spam');

    const reported = await post('first', '/deapi/v1/spam/feedback', { check_id: before.id, label: 'spam' });
    expect(reported.status).toBe(200);
    expect(feedbackResultSchema.parse(reported.body)).toMatchObject({
      check_id: before.id,
      label: 'spam',
      applied_to: ['email'],
    });

    const again = mailResultSchema.parse(
      (await post('first', '/api/v1/spam/mail', { email: `Promo.Sender.${run}+news@EXAMPLE.org` })).body,
    );
    expect(again).toMatchObject({ spam: true, verdict: 'spam' });
    expect(codes(again)).toContain('EMAIL_REPORTED_SPAM');

    const other = mailResultSchema.parse(
      (await post('second', '/api/v1/spam/mail', { email: address })).body,
    );
    expect(other.verdict).toBe(before.verdict);
    expect(codes(other)).not.toContain('EMAIL_REPORTED_SPAM');
  });

  it('when a client reports a text check as spam, a near-duplicate of it is spam for it, not for another client', async () => {
    const before = textResultSchema.parse((await post('first', '/frapi/v1/spam/text', CAMPAIGN)).body);
    const reported = await post('first', '/fr/api/v1/spam/feedback', { check_id: before.id, label: 'spam' });
    expect(reported.status).toBe(200);
    expect(reported.body.applied_to).toEqual(['text']);

    const variant = textResultSchema.parse((await post('first', '/frapi/v1/spam/text', VARIANT)).body);
    expect(variant).toMatchObject({ spam: true, verdict: 'spam' });
    expect(codes(variant)).toContain('TEXT_REPORTED_SPAM');
    expect(variant.reasons[0]!.message).toMatch(/signalé/);

    const otherBefore = textResultSchema.parse((await post('second', '/api/v1/spam/text', VARIANT)).body);
    expect(codes(otherBefore)).not.toContain('TEXT_REPORTED_SPAM');
    expect(otherBefore.score).toBeLessThan(variant.score);
  });

  it('when a client has reported an address and a text, its batch checks apply the reports too, not another client', async () => {
    const address = `batch.sender.${run}@example.org`;
    expect((await post('first', '/api/v1/spam/feedback', { email: address, label: 'spam' })).status).toBe(
      200,
    );
    expect((await post('first', '/api/v1/spam/feedback', { ...CAMPAIGN, label: 'spam' })).status).toBe(200);

    const mails = await post('first', '/api/v1/spam/mail/batch', {
      emails: [address, `other.${run}@example.org`],
    });
    expect(mails.status).toBe(200);
    const [reportedMail, otherMail] = (mails.body.results as unknown[]).map((result) =>
      mailResultSchema.parse(result),
    );
    expect(codes(reportedMail!)).toContain('EMAIL_REPORTED_SPAM');
    expect(codes(otherMail!)).not.toContain('EMAIL_REPORTED_SPAM');
    const texts = await post('first', '/api/v1/spam/text/batch', { items: [VARIANT] });
    expect(codes(textResultSchema.parse((texts.body.results as unknown[])[0]))).toContain(
      'TEXT_REPORTED_SPAM',
    );

    const second = await post('second', '/api/v1/spam/mail/batch', { emails: [address] });
    expect(codes(mailResultSchema.parse((second.body.results as unknown[])[0]))).not.toContain(
      'EMAIL_REPORTED_SPAM',
    );
  });

  it('when a step-by-step hybrid check is reported as ham by its id, both parts are ham for that client', async () => {
    const address = `hybrid.${run}@example.org`;
    const body = {
      email: address,
      title: 'Cheap meds',
      body: `Buy cheap pills online now ${run}, best prices, order at https://pills.example/${run} !!!`,
    };
    const first = hybridResultSchema.parse(
      (await post('first', '/api/v1/spam/hybrid-check', body, { 'X-Internal-Step-By-Step': 'yes' })).body,
    );
    expect(first.mode).toBe('step_by_step');
    expect(first.text).not.toBeNull();

    const reported = await post('first', '/api/v1/spam/feedback', { check_id: first.id, label: 'ham' });
    expect(reported.status).toBe(200);
    expect(reported.body.applied_to).toEqual(['email', 'text']);

    const again = hybridResultSchema.parse(
      (await post('first', '/api/v1/spam/hybrid-check', body, { 'X-Internal-Step-By-Step': 'on' })).body,
    );
    expect(again).toMatchObject({ spam: false, verdict: 'ham' });
    expect(codes(again.email)).toContain('EMAIL_REPORTED_HAM');
    expect(codes(again.text!)).toContain('TEXT_REPORTED_HAM');

    const other = hybridResultSchema.parse(
      (await post('second', '/api/v1/spam/hybrid-check', body, { 'X-Internal-Step-By-Step': 'yes' })).body,
    );
    expect(codes(other.email)).not.toContain('EMAIL_REPORTED_HAM');
    expect(other.text && codes(other.text)).not.toContain('TEXT_REPORTED_HAM');
  });

  it("when a client reports a hybrid result's part by the part's id, only that part changes", async () => {
    const body = {
      email: `part.${run}@example.org`,
      title: 'Garden club',
      body: `The garden club meets on Saturday ${run}; bring gloves and seeds to share with the others.`,
    };
    const hybrid = hybridResultSchema.parse((await post('first', '/api/v1/spam/hybrid-check', body)).body);
    const reported = await post('first', '/api/v1/spam/feedback', {
      check_id: hybrid.email.id,
      label: 'spam',
    });
    expect(reported.status).toBe(200);
    expect(reported.body.applied_to).toEqual(['email']);
    const again = hybridResultSchema.parse((await post('first', '/api/v1/spam/hybrid-check', body)).body);
    expect(codes(again.email)).toContain('EMAIL_REPORTED_SPAM');
    expect(codes(again.text!)).not.toContain('TEXT_REPORTED_SPAM');
  });

  it('when a client reports content without a check id, the address and the text get its label', async () => {
    const address = `content.${run}@example.org`;
    const mail = await post('first', '/api/v1/spam/feedback', { email: address, label: 'spam' });
    expect(mail.status).toBe(200);
    expect(mail.body).toMatchObject({ check_id: null, applied_to: ['email'] });
    const text = {
      title: 'Weekly digest',
      body: `Our weekly digest ${run}: five new recipes for the autumn and a short note from the editors.`,
    };
    const reported = await post('first', '/api/v1/spam/feedback', { ...text, label: 'spam' });
    expect(reported.body).toMatchObject({ check_id: null, applied_to: ['text'] });

    expect(
      codes(mailResultSchema.parse((await post('first', '/api/v1/spam/mail', { email: address })).body)),
    ).toContain('EMAIL_REPORTED_SPAM');
    const checked = textResultSchema.parse((await post('first', '/api/v1/spam/text', text)).body);
    expect(checked.verdict).toBe('spam');
    expect(codes(checked)).toContain('TEXT_REPORTED_SPAM');
  });

  it("when a client sends more reports at once than its queue holds, the rest get 429 with Retry-After and teach nothing, and another client's report does not wait", async () => {
    const texts = SUBJECTS.map((body, i) => ({ title: `Frage ${i} ${run}`, body: `${body} (${run})` }));
    const answeredAt: number[] = [];
    const started = performance.now();
    const timed = async (who: 'first' | 'second', body: object, index: number) => {
      const answer = await post(who, '/deapi/v1/spam/feedback', body);
      answeredAt[index] = performance.now() - started;
      return answer;
    };
    const [others, ...answers] = await Promise.all([
      timed('first', { ...CAMPAIGN, title: `Pace ${run}`, label: 'ham' }, texts.length),
      ...texts.map((text, i) => timed('second', { ...text, label: 'spam' }, i)),
    ]);
    // One report runs, four wait (2 s at 2 a second), the others are refused before any work.
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(2);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((status) => status === 200 || status === 429)).toBe(true);
    for (const refused of answers.filter((answer) => answer.status === 429)) {
      expect(problemSchema.parse(refused.body)).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(refused.body.detail).toMatch(/Anfragelimit/);
    }
    // The queue is paced: the last accepted report is answered a spacing (0.5 s) per report after the first.
    const accepted = answeredAt.filter((_, i) => statuses[i] === 200);
    expect(Math.max(...accepted)).toBeGreaterThanOrEqual(500 * (accepted.length - 1) - 50);
    expect(others.status).toBe(200);
    expect(answeredAt[texts.length]).toBeLessThan(Math.max(...accepted));
    // Learnt exactly when accepted.
    for (const [i, text] of texts.entries()) {
      const checked = textResultSchema.parse((await post('second', '/api/v1/spam/text', text)).body);
      expect({ i, status: statuses[i], reported: codes(checked).includes('TEXT_REPORTED_SPAM') }).toEqual({
        i,
        status: statuses[i],
        reported: statuses[i] === 200,
      });
    }
  });

  it("when the check id is unknown or another client's, it is 404 CHECK_NOT_FOUND in the caller's language", async () => {
    const theirs = mailResultSchema.parse(
      (await post('second', '/api/v1/spam/mail', { email: `x.${run}@example.org` })).body,
    );
    for (const id of [randomUUID(), theirs.id]) {
      const response = await post('first', '/deapi/v1/spam/feedback', { check_id: id, label: 'spam' });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(problemSchema.parse(response.body)).toMatchObject({ code: 'CHECK_NOT_FOUND', status: 404 });
      expect(response.body.detail).toMatch(/Prüfung|Client/);
    }
    const after = mailResultSchema.parse(
      (await post('second', '/api/v1/spam/mail', { email: `x.${run}@example.org` })).body,
    );
    expect(codes(after)).not.toContain('EMAIL_REPORTED_SPAM');
  });

  it('when the body is malformed, it is a localised 400 and nothing is stored', async () => {
    const address = `bad.${run}@example.org`;
    for (const body of [
      { email: address, label: 'maybe' },
      { email: address },
      { check_id: 7, label: 'spam' },
      { title: 'only a title', label: 'spam' },
      [address],
      { email: address, label: 'spam', note: 'an unknown field' },
      { email: address, title: 'Hello', body: 'mixed forms', label: 'spam' },
      { check_id: randomUUID(), email: address, label: 'spam' },
      { check_id: randomUUID(), title: 'Hello', body: 'mixed forms', label: 'spam' },
    ]) {
      const response = await post('first', '/frapi/v1/spam/feedback', body);
      expect(response.status).toBe(400);
      expect(problemSchema.parse(response.body).code).toBe('VALIDATION_FAILED');
      expect(response.body.detail).toMatch(/champs/);
    }
    const oversized = await post('first', '/api/v1/spam/feedback', {
      email: address,
      label: 'spam',
      pad: 'x'.repeat(300_000),
    });
    expect(oversized.status).toBe(413);
    const checked = mailResultSchema.parse(
      (await post('first', '/api/v1/spam/mail', { email: address })).body,
    );
    expect(codes(checked)).not.toContain('EMAIL_REPORTED_SPAM');
  });

  it('when a text holds a lone UTF-16 surrogate, it is 400 like invalid UTF-8, for feedback and checks, and nothing is stored', async () => {
    const text = { title: `Lone ${run}`, body: `A garden party on Sunday \ud800 at noon, ${run}.` };
    const refused = await post('first', '/api/v1/spam/feedback', { ...text, label: 'spam' });
    expect(refused.status).toBe(400);
    expect(problemSchema.parse(refused.body).code).toBe('MALFORMED_JSON');
    const checkedLone = await post('first', '/api/v1/spam/text', text);
    expect(checkedLone.status).toBe(400);
    expect(problemSchema.parse(checkedLone.body).code).toBe('MALFORMED_JSON');
    // A surrogate pair (an emoji) is text: checked, and the refused report left nothing behind.
    const wellFormed = textResultSchema.parse(
      (
        await post('first', '/api/v1/spam/text', {
          ...text,
          body: text.body.replace('\ud800', '\ud83d\ude00'),
        })
      ).body,
    );
    expect(codes(wellFormed)).not.toContain('TEXT_REPORTED_SPAM');
  });

  it('when a test fixture is reported, the report is accepted and its verdict stays fixed', async () => {
    const fixture = await post('first', '/api/v1/spam/feedback', {
      email: 'ham@spam-check.test',
      label: 'spam',
    });
    expect(fixture.status).toBe(200);
    const mail = mailResultSchema.parse(
      (await post('first', '/api/v1/spam/mail', { email: 'ham@spam-check.test' })).body,
    );
    expect(mail.verdict).toBe('ham');
    expect(codes(mail)).toEqual(['EMAIL_TEST_FIXTURE']);
    const text = { title: 'Fixture', body: 'Buy now!!! spam-check-test-ham' };
    expect((await post('first', '/api/v1/spam/feedback', { ...text, label: 'spam' })).status).toBe(200);
    const checked = textResultSchema.parse((await post('first', '/api/v1/spam/text', text)).body);
    expect(checked.verdict).toBe('ham');
    expect(codes(checked)).toEqual(['TEXT_TEST_FIXTURE']);
  });

  it('when feedback is sent, it counts against the rate limit like a check', async () => {
    const first = await post('first', '/api/v1/spam/feedback', {
      email: `rl.${run}@example.org`,
      label: 'ham',
    });
    const second = await post('first', '/api/v1/spam/feedback', {
      email: `rl.${run}@example.org`,
      label: 'ham',
    });
    const remaining = (response: typeof first) => Number(response.headers.get('ratelimit-remaining'));
    expect(remaining(second)).toBeLessThan(remaining(first));
  });
});
