import { randomUUID } from 'node:crypto';
import { textResultSchema, type TextResult } from '@spam-check/contracts';
import { redisUrl, removeKeysUnder, reportFeedback } from '@spam-check/test-support';
import { Redis } from 'ioredis';
import { check, startDetector, type StartedDetector } from './helpers';

const codes = (result: TextResult) => result.reasons.map((reason) => reason.code);

async function checked(url: string, client: string, body: object): Promise<TextResult> {
  const response = await check(url, body, { 'x-client-id': client });
  expect(response.status).toBe(200);
  return textResultSchema.parse(response.body);
}

// Notices of a garden club, which the model reads as ham, and which one client reports as spam.
const notice = (task: string, detail: string) => ({
  title: 'Gartenverein',
  body: `Liebe Mitglieder, am Samstag ${task} im Vereinsgarten. ${detail} Bitte bringt Handschuhe und gute Laune mit.`,
});
const TASKS = [
  'pflanzen wir Tulpen',
  'schneiden wir die Hecken',
  'streichen wir den Zaun',
  'reparieren wir den Schuppen',
  'mähen wir die Wiese',
  'gießen wir die Beete',
  'bauen wir ein Hochbeet',
  'säen wir Radieschen',
];
const DETAILS = [
  'Wir treffen uns um zehn Uhr am Tor.',
  'Kaffee und Kuchen gibt es ab drei.',
  'Farbe und Pinsel sind schon besorgt.',
  'Werkzeug bringt jeder selbst mit.',
];
const REPORTED = TASKS.flatMap((task) => DETAILS.map((detail) => notice(task, detail)));

// A survey scam in variants, and a shop's own survey mails that share its words.
const SURVEY_SCAM = [
  'Congratulations, you have been selected for our customer survey, answer 3 questions and get a voucher',
  'Congratulations! You were selected for our short customer survey: answer 3 questions and win a voucher',
  'You have been selected: take our customer survey, 3 questions, and claim your free voucher today',
  'Selected for our customer survey! Answer three questions to get your voucher now',
].map((body) => ({ title: '', body }));
const SHOP_SURVEY = [
  'Thank you for your order! Get a voucher for your feedback in our customer survey: https://shop.example/survey',
  'Our customer survey is open: answer 3 questions at https://shop.example/survey and get a voucher',
  'Customer survey: answer the questions about our new opening hours and get a voucher, https://shop.example/s',
  'Win a voucher! Answer our customer survey questions at https://shop.example/survey',
].map((body) => ({ title: '', body }));

/** Checks each text for the client and reports it with the label, as a moderator would. */
async function checkAndReport(url: string, client: string, texts: object[], label: 'spam' | 'ham') {
  for (const text of texts) {
    const result = await checked(url, client, text);
    expect((await reportFeedback(url, client, { check_id: result.id, label })).status).toBe(200);
  }
}

describe("the correction a client's reports teach (Redis)", () => {
  const prefix = `text-correction-test-${randomUUID().slice(0, 8)}:`;
  let detector: StartedDetector;
  beforeAll(async () => {
    detector = await startDetector({ REDIS_URL: redisUrl(), TEXT_FEEDBACK_PREFIX: prefix });
  });
  afterAll(async () => {
    await detector.stop();
    const redis = new Redis(redisUrl());
    await removeKeysUnder(redis, prefix);
    redis.disconnect();
  });

  it('when a client reports texts the model calls ham as spam, another text of their kind becomes suspicious for it, not spam; the reported ones are spam', async () => {
    const client = `conservative-${randomUUID()}`;
    await checkAndReport(detector.url, client, REPORTED, 'spam');
    const unseen = notice(
      'pflanzen wir Tulpen, säen Radieschen, bauen ein Hochbeet und mähen die Wiese',
      'Kaffee und Kuchen gibt es ab drei, Werkzeug bringt jeder selbst mit.',
    );
    const theirs = await checked(detector.url, `other-${randomUUID()}`, unseen);
    const mine = await checked(detector.url, client, unseen);
    expect(theirs.verdict).toBe('ham');
    expect(mine.verdict).toBe('suspicious');
    expect(codes(mine)).toContain('TEXT_CLIENT_MODEL');
    const again = await checked(detector.url, client, REPORTED[0]!);
    expect(again.verdict).toBe('spam');
    expect(codes(again)).toContain('TEXT_REPORTED_SPAM');
  });

  it("when a client reported a scam's words as spam, a new variant is spam for it, also when it reported its shop's own survey mails as ham", async () => {
    const variant = {
      title: '',
      body: 'Congratulations! You were selected: take our customer survey, answer three questions to get your voucher now',
    };
    const spamOnly = `spam-only-${randomUUID()}`;
    await checkAndReport(detector.url, spamOnly, SURVEY_SCAM, 'spam');
    const balanced = `balanced-${randomUUID()}`;
    await checkAndReport(detector.url, balanced, SHOP_SURVEY, 'ham');
    await checkAndReport(detector.url, balanced, SURVEY_SCAM, 'spam');

    const theirs = await checked(detector.url, `other-${randomUUID()}`, variant);
    const taught = await checked(detector.url, spamOnly, variant);
    const doubted = await checked(detector.url, balanced, variant);
    expect(theirs.verdict).not.toBe('spam');
    expect(taught.verdict).toBe('spam');
    expect(codes(taught)).toEqual(expect.arrayContaining(['TEXT_CLIENT_MODEL']));
    expect(codes(taught)).not.toContain('TEXT_REPORTED_SPAM');
    expect(doubted.verdict).toBe('spam');
  });
});
