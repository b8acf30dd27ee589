import { textResultSchema, type TextResult } from '@spam-check/contracts';
import { FakeOpenAi } from './fake-openai';
import { check, detectorForSuite, startDetector, type StartedDetector } from './helpers';

/**
 * The language of a text is detected; a text outside the model's ground never
 * gets `spam` from the model alone and the LLM is asked about it; the LLM is told the text's language.
 */
const OUT_OF_DEPTH = [
  [
    'Polish',
    'language',
    'Dzień dobry, mam dla Pana wyjątkową ofertę kredytu bez sprawdzania. Wygraj nagrodę 5000 zł już dziś, odpowiedz na tę wiadomość i podaj dane konta bankowego.',
  ],
  [
    'Turkish',
    'language',
    'Tebrikler! Büyük ödülü kazandınız. Hemen bu mesaja cevap verin ve banka bilgilerinizi gönderin, teklif bugün sona eriyor, acele edin.',
  ],
  [
    'Russian',
    'language',
    'Поздравляем! Вы выиграли приз сто тысяч рублей. Срочно ответьте на это письмо и сообщите данные вашей банковской карты, предложение действует только сегодня.',
  ],
  [
    'source code',
    'form',
    'function total(values) {\n  let sum = 0;\n  for (let i = 0; i < values.length; i++) { sum += values[i]; }\n  return { sum, free: sum > 0 ? "win" : "lose" };\n}',
  ],
  ['a list of numbers', 'language', '12 45 78 90 11 23 56 89 34 67 12 98 77 41 53 20 19 88 64 31'],
] as const;

const post = async (url: string, body: string, language = 'en'): Promise<TextResult> =>
  textResultSchema.parse((await check(url, { title: '', body }, { 'accept-language': language })).body);

describe('languages', () => {
  const detector = detectorForSuite({ TEXT_LLM_MODE: 'band' });

  it.each([
    [
      'de',
      'Der Radweg an der Hauptstraße ist seit Wochen gesperrt, und niemand sagt uns, wann er wieder offen ist.',
    ],
    [
      'fr',
      'Le film était un peu long, mais les acteurs sont excellents et la musique reste longtemps en tête.',
    ],
    [
      'en',
      'The meeting moved to Thursday afternoon, so please bring the updated figures for the budget review.',
    ],
  ])('when a text is in %s, language names it', async (language, body) => {
    expect((await post(detector.url, body)).language).toBe(language);
  });

  it.each(OUT_OF_DEPTH)(
    'when the text is %s and no LLM is configured, it is at most suspicious, says why, and is degraded',
    async (_name, why, body) => {
      const result = await post(detector.url, body);
      expect(result.verdict).not.toBe('spam');
      expect(result.score).toBeLessThan(0.8);
      expect(result).toMatchObject({ engine: 'model', degraded: true, signals: { model_unfamiliar: why } });
      expect(result.reasons.map((reason) => reason.code)).toEqual(
        expect.arrayContaining(['TEXT_MODEL_UNFAMILIAR', 'TEXT_LLM_UNAVAILABLE']),
      );
    },
  );

  it('when a German text is familiar and the model is sure, it is not marked unfamiliar', async () => {
    const result = await post(
      detector.url,
      'Ich fahre jeden Tag mit dem Rad zur Arbeit und wünsche mir eine sichere Kreuzung am Bahnhof.',
      'de',
    );
    expect(result.signals.model_unfamiliar).toBeUndefined();
    expect(result.verdict).toBe('ham');
  });
});

describe('the LLM is asked about unfamiliar texts and told the language', () => {
  const fake = new FakeOpenAi();
  let detector: StartedDetector;
  beforeAll(async () => {
    const baseUrl = await fake.start();
    detector = await startDetector({
      TEXT_LLM_MODE: 'band',
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: baseUrl,
      TEXT_LLM_MAX_RETRIES: '0',
    });
  });
  afterAll(async () => {
    await detector.stop();
    await fake.stop();
  });
  beforeEach(() => {
    fake.requests = [];
  });

  const messagesOf = (index: number) =>
    fake.requests[index]?.body.messages as { role: string; content: string }[];

  it.each(OUT_OF_DEPTH)('when the text is %s, the LLM decides', async (_name, _why, body) => {
    const result = await post(detector.url, body);
    expect(fake.requests).toHaveLength(1);
    expect(result).toMatchObject({ engine: 'llm', degraded: false, verdict: 'spam' });
  });

  it('when the text is Polish, the request names Polish and asks for a Polish-language website', async () => {
    // Another Polish text than above: that one's answer is cached.
    await post(detector.url, `${OUT_OF_DEPTH[0][2]} Pozdrawiam serdecznie, Anna.`);
    const messages = messagesOf(0);
    expect(messages.map((message) => message.role)).toEqual(['system', 'system', 'user']);
    expect(messages[1]?.content).toContain('written in Polish (pl)');
    expect(messages[1]?.content).toContain('moderator of a Polish-language website');
    expect(JSON.parse(messages[2]?.content ?? '{}')).toMatchObject({ language: 'pl' });
  });

  it('when a German text is asked about, the request names German', async () => {
    const detectorAlways = await startDetector({
      TEXT_LLM_MODE: 'always',
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: fake.baseUrl,
      TEXT_LLM_MAX_RETRIES: '0',
    });
    try {
      await post(detectorAlways.url, 'Gibt es in Köln eine gute Werkstatt für alte Fahrräder? Danke euch!');
      const messages = messagesOf(0);
      expect(messages[1]?.content).toContain('written in German (de)');
      expect(messages[1]?.content).toContain('moderator of a German-language website');
      expect(JSON.parse(messages[2]?.content ?? '{}')).toMatchObject({ language: 'de' });
    } finally {
      await detectorAlways.stop();
    }
  });
});
