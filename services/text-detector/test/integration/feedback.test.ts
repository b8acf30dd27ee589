import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { textResultSchema, type TextResult } from '@spam-check/contracts';
import { redisUrl, removeKeysUnder, reportFeedback } from '@spam-check/test-support';
import { Redis } from 'ioredis';
import { fingerprintOf, nearDuplicates } from '../../src/domain/near-duplicate';
import { readRows } from '../../scripts/train/data';
import { check, detectorForSuite, startDetector } from './helpers';

const codes = (result: TextResult) => result.reasons.map((reason) => reason.code);

async function checked(url: string, client: string, body: object): Promise<TextResult> {
  const response = await check(url, body, { 'x-client-id': client });
  expect(response.status).toBe(200);
  return textResultSchema.parse(response.body);
}

// Hand-written copies of campaigns of the kind found in the corpora (SMS prize scams, fake job offers,
// YouTube comment spam): the same text with other names, numbers, links and spacing.
const VARIANTS: [string, string][] = [
  [
    'URGENT! Your mobile number has been awarded a £2000 prize GUARANTEED. Call 09061790121 from a landline. Claim code 3030. Valid 12hrs only',
    'URGENT!  Your mobile number has been awarded a £5000 prize GUARANTEED. Call 09066368753 from a landline. Claim code 1234. Valid 12hrs only',
  ],
  [
    'Hi Sarah, I found your profile and I think you are perfect for a home based data entry job, $450 a week. Contact me at jobs.anna@mail.example for details.',
    'Hi Michael, I found your profile and I think you are perfect for a home based data entry job, $380 a week. Contact me at recruit.tom@post.example for details.',
  ],
  [
    'Check out my channel http://youtube.com/user/gamerkid99 I upload new videos every day, please subscribe and like!!',
    'Check out my channel https://www.youtube.com/channel/UC7xYz please, I upload new videos every day, please subscribe and like!',
  ],
];

describe('near-duplicates', () => {
  it.each(VARIANTS)(
    'when a campaign comes back with other names, numbers and links, it is a near-duplicate',
    (a, b) => {
      expect(nearDuplicates(fingerprintOf('', a), fingerprintOf('', b))).toBe(true);
    },
  );

  it('when two texts only share a title and a link, or differ in substance, they are not near-duplicates', () => {
    expect(
      nearDuplicates(
        fingerprintOf('Katy Perry - Roar', 'Omg http://x.example'),
        fingerprintOf('Katy Perry - Roar', 'LIKE AND SUBSCRIBE http://y.example'),
      ),
    ).toBe(false);
    expect(nearDuplicates(fingerprintOf('', VARIANTS[0]![0]), fingerprintOf('', VARIANTS[1]![0]))).toBe(
      false,
    );
    expect(
      nearDuplicates(
        fingerprintOf(
          'Meeting',
          'Can we move our meeting to Thursday afternoon? The room on the third floor is free.',
        ),
        fingerprintOf(
          'Meeting',
          'Can we move our lunch to Friday morning? I will bring the slides and the budget numbers.',
        ),
      ),
    ).toBe(false);
  });
});

describe('POST /v1/feedback of the text detector (Redis)', () => {
  const prefix = `text-feedback-test-${randomUUID().slice(0, 8)}:`;
  const env = { REDIS_URL: redisUrl(), TEXT_FEEDBACK_PREFIX: prefix, FEEDBACK_MAX_REPORTS: '3' };
  const detector = detectorForSuite(env);
  // After the detector has stopped (after-all hooks run in the order they are declared).
  afterAll(async () => {
    const redis = new Redis(redisUrl());
    await removeKeysUnder(redis, prefix);
    redis.disconnect();
  });

  it('when a report names a check of another client or none, it is 404 CHECK_NOT_FOUND and nothing changes', async () => {
    const theirs = await checked(detector.url, 'client-b', { title: 'Lunch', body: VARIANTS[1]![0] });
    const response = await reportFeedback(detector.url, 'client-a', { check_id: theirs.id, label: 'spam' });
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('CHECK_NOT_FOUND');
    expect(
      codes(await checked(detector.url, 'client-a', { title: 'Lunch', body: VARIANTS[1]![0] })),
    ).not.toContain('TEXT_REPORTED_SPAM');
    const missing = await fetch(`${detector.url}/v1/feedback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ check_id: theirs.id, label: 'spam' }),
    });
    expect(missing.status).toBe(400);
  });

  it('when a client reports more texts than its cap, the oldest report no longer applies', async () => {
    const client = `capped-${randomUUID()}`;
    const texts = [
      'The chess club meets on Tuesday evening in the community hall; beginners are welcome.',
      'Our bakery will be closed for renovation until the end of the month, sorry for the trouble.',
      'Reminder: the library returns box moved next to the main entrance of the town hall.',
      'Volunteers wanted for the river clean-up next weekend, gloves and bags are provided.',
    ].map((body, index) => ({ title: `Notice ${index}`, body }));
    for (const text of texts)
      expect((await reportFeedback(detector.url, client, { ...text, label: 'spam' })).status).toBe(200);
    expect(codes(await checked(detector.url, client, texts[0]!))).not.toContain('TEXT_REPORTED_SPAM');
    for (const text of texts.slice(1))
      expect(codes(await checked(detector.url, client, text))).toContain('TEXT_REPORTED_SPAM');
  });

  it('when the service restarts, the reports are still there', async () => {
    const client = `durable-${randomUUID()}`;
    const text = { title: 'Offer', body: VARIANTS[0]![0] };
    const before = await checked(detector.url, client, text);
    expect((await reportFeedback(detector.url, client, { check_id: before.id, label: 'ham' })).status).toBe(
      200,
    );
    const restarted = await startDetector(env);
    try {
      const after = await checked(restarted.url, client, { title: 'Offer', body: VARIANTS[0]![1] });
      expect(after.verdict).toBe('ham');
      expect(codes(after)).toContain('TEXT_REPORTED_HAM');
    } finally {
      await restarted.stop();
    }
  });

  it('when a client reports several texts of a kind, other texts of that kind score higher for it, not for others', async () => {
    const client = `learner-${randomUUID()}`;
    const kind = (subject: string, detail: string) => ({
      title: 'Gartenverein',
      body: `Liebe Mitglieder, am Samstag ${subject} im Vereinsgarten. ${detail} Bitte bringt Handschuhe und gute Laune mit.`,
    });
    const reported = [
      kind('pflanzen wir Tulpen', 'Wir treffen uns um zehn Uhr am Tor.'),
      kind('schneiden wir die Hecken', 'Kaffee und Kuchen gibt es ab drei.'),
      kind('streichen wir den Zaun', 'Farbe und Pinsel sind schon besorgt.'),
    ];
    for (const text of reported)
      expect((await reportFeedback(detector.url, client, { ...text, label: 'spam' })).status).toBe(200);
    const unseen = kind('ernten wir die Äpfel', 'Körbe stehen im Schuppen bereit.');
    const mine = await checked(detector.url, client, unseen);
    const theirs = await checked(detector.url, `other-${randomUUID()}`, unseen);
    expect(codes(mine)).not.toContain('TEXT_REPORTED_SPAM');
    expect(mine.score).toBeGreaterThan(theirs.score);
  });

  it('when the reports are exported, the training script reads them as extra data', async () => {
    const client = `export-${randomUUID()}`;
    await reportFeedback(detector.url, client, {
      title: 'Prize',
      body: `${VARIANTS[0]![0]} https://win.example/a`,
      label: 'spam',
    });
    await reportFeedback(detector.url, client, {
      title: 'Hallo',
      body: 'Danke für die schnelle Antwort, bis morgen!',
      label: 'ham',
    });
    const out = join(mkdtempSync(join(tmpdir(), 'feedback-export-')), 'reports.jsonl');
    await promisify(execFile)(
      process.execPath,
      [
        '--conditions=source',
        '--import',
        'tsx',
        'src/cli.ts',
        'feedback',
        'export',
        '--client',
        client,
        '--out',
        out,
      ],
      { cwd: join(__dirname, '..', '..'), env: { ...process.env, ...env, LOG_LEVEL: 'silent' } },
    );
    const rows = readRows(out);
    expect(rows.map((row) => row.label)).toEqual(['spam', 'ham']);
    expect(rows[0]).toMatchObject({ source: `feedback/${client}`, lang: 'en' });
    expect(rows[0]!.body).toContain('urltok');
    expect(rows[0]!.body).not.toContain('win.example');
  });
});

describe('POST /v1/feedback with FEEDBACK_RETENTION_SECONDS=0 (embedded)', () => {
  const detector = detectorForSuite({ FEEDBACK_RETENTION_SECONDS: '0' });

  it('when nothing is kept, a report by check id is 404, and one by content still applies', async () => {
    const text = { title: 'Hello', body: VARIANTS[2]![0] };
    const result = await checked(detector.url, 'client-a', text);
    expect(
      (await reportFeedback(detector.url, 'client-a', { check_id: result.id, label: 'spam' })).status,
    ).toBe(404);
    expect((await reportFeedback(detector.url, 'client-a', { ...text, label: 'ham' })).status).toBe(200);
    const after = await checked(detector.url, 'client-a', { title: 'Hello', body: VARIANTS[2]![1] });
    expect(codes(after)).toContain('TEXT_REPORTED_HAM');
  });
});
