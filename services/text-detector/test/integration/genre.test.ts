import { textResultSchema, type FormContext, type TextResult } from '@spam-check/contracts';
import { check, checkBatch, detectorForSuite } from './helpers';

/** The model reads the form a text came with (its genre and author): checks through HTTP, batches too. */
const CALL_BACK = {
  title: 'Rückruf wegen Rechnung',
  body: 'Guten Tag, zur Rechnung 2024-3391 habe ich eine Frage zur Zahlung per Überweisung. Bitte rufen Sie mich unter 0176 55512345 zurück, am besten vormittags. Vielen Dank, Birgit Hahn',
};
const SUPPORT_DROP = {
  title: '',
  body: 'Great article, thanks! If your Epson printer shows an error, call the printer support number +1 (844) 555-0142, our technicians help 24/7.',
};
const PRAISE = { title: '', body: 'Thanks for sharing, this was very useful to me.' };

describe('a text is judged as what its form says it is', () => {
  const detector = detectorForSuite({});

  async function checked(text: object, context?: FormContext): Promise<TextResult> {
    const response = await check(detector.url, context ? { ...text, context } : text);
    expect(response.status).toBe(200);
    return textResultSchema.parse(response.body);
  }
  const probability = (result: TextResult) => result.signals.model_probability as number;

  it('when a German call-back request about an invoice is checked as a contact message, it is ham', async () => {
    const result = await checked(CALL_BACK, { form_type: 'contact' });
    expect(result.verdict).toBe('ham');
  });

  it('when a support-number drop is checked as a comment, it is spam', async () => {
    const result = await checked(SUPPORT_DROP, { form_type: 'comment' });
    expect(result).toMatchObject({ verdict: 'spam', spam: true, engine: 'model' });
  });

  it('when the call-back request is checked as a comment, the model finds it more likely spam than as a contact message', async () => {
    const asContact = await checked(CALL_BACK, { form_type: 'contact' });
    const asComment = await checked(CALL_BACK, { form_type: 'comment' });
    expect(probability(asComment)).toBeGreaterThan(probability(asContact));
  });

  it('when generic praise comes from an author named and linked with keywords, it scores above the same praise from a person', async () => {
    const person = await checked(PRAISE, {
      form_type: 'comment',
      author_name: 'Julia',
      author_url: 'https://julia-kocht.example',
    });
    const keywords = await checked(PRAISE, {
      form_type: 'comment',
      author_name: 'Best Essay Writing Service',
      author_url: 'https://cheap-essay-writing-service.example',
    });
    expect(probability(keywords)).toBeGreaterThan(probability(person));
  });

  it('when batch items carry different form types, each is judged by its own', async () => {
    const items = [
      { ...CALL_BACK, context: { form_type: 'contact' } },
      { ...CALL_BACK, context: { form_type: 'comment' } },
      CALL_BACK,
    ];
    const response = await checkBatch(detector.url, { items });
    expect(response.status).toBe(200);
    const results = response.body.results.map((result) => textResultSchema.parse(result));
    const single = await Promise.all(items.map((item) => check(detector.url, item)));
    expect(results.map(probability)).toEqual(
      single.map((answer) => probability(textResultSchema.parse(answer.body))),
    );
    expect(new Set(results.map(probability)).size).toBe(3);
  });
});
