import { textResultSchema, type TextResult } from '@spam-check/contracts';
import { check, detectorForSuite, startDetector } from './helpers';

describe('POST /v1/check (local stages)', () => {
  const detector = detectorForSuite({ TEXT_DENY_TERMS: 'forbidden-brand, Casino Royale Bonus' });

  async function checked(body: unknown, headers: Record<string, string> = {}): Promise<TextResult> {
    const response = await check(detector.url, body, headers);
    expect(response.status).toBe(200);
    return textResultSchema.parse(response.body);
  }

  const codes = (result: TextResult) => result.reasons.map((reason) => reason.code);

  it('when the body holds the spam fixture marker, it answers spam from the rules', async () => {
    const result = await checked({ title: 'hello', body: 'A friendly note. spam-check-test-spam' });
    expect(result).toMatchObject({ spam: true, verdict: 'spam', score: 1, engine: 'rules', degraded: false });
    expect(codes(result)).toEqual(['TEXT_TEST_FIXTURE']);
  });

  it('when the title holds the ham fixture marker, it answers ham even for spammy text', async () => {
    const result = await checked({
      title: 'spam-check-test-ham',
      body: 'FREE VIAGRA!!! WIN $$$ NOW!!! Click http://bit.ly/x http://bit.ly/y http://bit.ly/z',
    });
    expect(result).toMatchObject({ spam: false, verdict: 'ham', score: 0, engine: 'rules' });
  });

  it('when a deny-listed term hides behind look-alike letters, the deny list wins over the ham fixture', async () => {
    // "саsino" starts with Cyrillic с and а.
    const result = await checked({
      title: 'spam-check-test-ham',
      body: 'Get your \u0441\u0430sino royale bonus',
    });
    expect(result).toMatchObject({ spam: true, engine: 'rules' });
    expect(codes(result)[0]).toBe('TEXT_DENY_LISTED');
  });

  it('when the text is an ordinary English message, the model calls it ham and detects English', async () => {
    const result = await checked({
      title: 'Meeting notes',
      body: 'Hi Anna, thanks for the notes from yesterday. I will send the revised schedule to the team on Monday, and we can discuss the budget then.',
    });
    expect(result).toMatchObject({
      spam: false,
      verdict: 'ham',
      engine: 'model',
      language: 'en',
      degraded: false,
    });
    expect(codes(result)).toContain('TEXT_MODEL_HAM');
    expect(result.signals.model_probability).toBeLessThan(0.3);
  });

  it('when the text is classic advance-fee spam, the model calls it spam', async () => {
    const result = await checked({
      title: 'URGENT BUSINESS PROPOSAL',
      body: 'Dear friend, I am the son of the late minister. I need your assistance to transfer the sum of $25,000,000 USD into your bank account. You will receive 30% of the total sum. Reply with your full name, bank details and phone number. Click here to claim your prize now, limited offer, act now, 100% free, no risk!',
    });
    expect(result).toMatchObject({ spam: true, verdict: 'spam' });
    expect(codes(result)).toContain('TEXT_MODEL_SPAM');
  });

  it('when the text is German or French, it fills language and localises messages by Accept-Language', async () => {
    const german = await checked(
      {
        title: 'Frage zur Lieferung',
        body: 'Hallo, ich habe die Bestellung noch nicht bekommen. Können Sie mir bitte sagen, wann sie ankommt? Danke und viele Grüße.',
      },
      { 'accept-language': 'de' },
    );
    expect(german.language).toBe('de');
    expect(german.reasons[0]?.message).toMatch(/Modell/);
    const french = await checked(
      {
        title: 'Question',
        body: "Bonjour, je n'ai pas encore reçu la commande. Pouvez-vous me dire quand elle arrive ? Merci pour votre aide et bonne journée.",
      },
      { 'accept-language': 'fr' },
    );
    expect(french.language).toBe('fr');
    expect(french.reasons[0]?.message).toMatch(/modèle/);
  });

  it('when the text is too short to tell its language, language is null', async () => {
    expect((await checked({ title: '', body: 'ok 123' })).language).toBeNull();
  });

  it('when the text asks to move to a messenger and gives a wallet, it reports both reasons', async () => {
    const result = await checked({
      title: 'Investment',
      sub_title: 'guaranteed returns',
      body: 'Contact me on WhatsApp +49 151 2345 6789 and send the deposit to bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    });
    expect(codes(result)).toEqual(expect.arrayContaining(['TEXT_CONTACT_ELSEWHERE', 'TEXT_CRYPTO_WALLET']));
    expect(result.signals.crypto_wallets).toBe(1);
    expect(result.spam).toBe(true);
  });

  it('when German text invites to write privately on Telegram, it reports contact elsewhere', async () => {
    const result = await checked({
      title: 'Nebenjob',
      body: 'Schreib mir auf Telegram @geldmacher_24 für Details',
    });
    expect(codes(result)).toContain('TEXT_CONTACT_ELSEWHERE');
  });

  it('when links go through shorteners and dominate the text, it reports links, density and shorteners', async () => {
    const result = await checked({
      title: 'look',
      body: 'https://bit.ly/3abcDEF https://tinyurl.com/y7x8z9 https://example.com/a',
    });
    expect(result.signals).toMatchObject({ links: 3, shorteners: 2 });
    expect(result.signals.link_density).toBeGreaterThan(0.9);
    expect(codes(result)).toEqual(
      expect.arrayContaining(['TEXT_LINKS', 'TEXT_LINK_DENSITY', 'TEXT_URL_SHORTENER']),
    );
  });

  it('when words are spaced out or written with digits, it reports obfuscation', async () => {
    const result = await checked({ title: '', body: 'Buy cheap v i a g r a and v1agra today' });
    expect(codes(result)).toContain('TEXT_OBFUSCATION');
    expect(result.signals.obfuscated_words).toBe(2);
  });

  it('when zero-width characters split words, they are removed and counted', async () => {
    const result = await checked({ title: '', body: 'fr\u200bee mo\u200bney fo\u200br yo\u200bu' });
    expect(result.signals.invisible_characters).toBe(4);
    expect(codes(result)).toContain('TEXT_OBFUSCATION');
    expect(result.signals.length).toBe('free money for you'.length);
  });

  it('when variation selectors split words, they are removed and counted, and the emoji selector is kept', async () => {
    // U+E0139 renders as nothing after a Latin letter (seen in phishing: "M\u{E0139}icrosoft 365 Billing").
    const vs = '\u{e0139}';
    const result = await checked({
      title: '',
      body: `M${vs}icro${vs}soft 36${vs}5 bil${vs}ling \u2764\ufe0f`,
    });
    expect(result.signals.invisible_characters).toBe(4);
    expect(result.signals.length).toBe('Microsoft 365 billing \u2764\ufe0f'.length);
  });

  it('when the text shouts and repeats, it reports shouting and repetition', async () => {
    const result = await checked({
      title: 'BUY NOW',
      body: 'BEST PRICE EVER!!! ORDER TODAY!!! AAAAAAAAAAAAAAAA',
    });
    expect(codes(result)).toEqual(expect.arrayContaining(['TEXT_SHOUTING', 'TEXT_REPETITION']));
    expect(result.signals.uppercase_ratio).toBeGreaterThan(0.7);
  });

  it('when the body is HTML, tags and entities are turned into text before the checks', async () => {
    const result = await checked({
      title: '',
      body: '<div><script>var x = "<b>";</script><p>Hello&nbsp;<b>world</b> &amp; friends</p></div>',
    });
    // div, p, b, /b, /p, /div; the script element is dropped with its content.
    expect(result.signals.html_tags).toBe(6);
    // 21 characters of text plus the line breaks and spaces that replaced the tags and the script.
    expect(result.signals.length).toBe(28);
  });

  it('when a tag carries a long data URI, the tag and its attributes are dropped, not read as words', async () => {
    const image = `<img alt="logo" src="data:image/png;base64,${'iVBORw0KGgo'.repeat(3000)}">`;
    const result = await checked({ title: '', body: `${image}Verify your account` });
    expect(result.signals.html_tags).toBe(1);
    // The tag became one space.
    expect(result.signals.length).toBe(' Verify your account'.length);
  });

  it('when the body ends inside a tag cut off in its attributes, that tag is dropped; a lone < is text', async () => {
    const cut = await checked({
      title: '',
      body: `Verify your account <img src="data:image/png;base64,${'QUJD'.repeat(500)}`,
    });
    expect(cut.signals.html_tags).toBe(1);
    expect(cut.signals.length).toBe('Verify your account  '.length);
    const plain = await checked({ title: '', body: 'if a <b then c' });
    expect(plain.signals.html_tags).toBe(0);
    expect(plain.signals.length).toBe('if a <b then c'.length);
  });

  it('when the body is missing, it answers 400 with a problem', async () => {
    const response = await check(detector.url, { title: 'x' });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('when the LLM is switched off, unsure texts are not degraded', async () => {
    const result = await checked({
      title: 'offer',
      body: 'Special offer for members this week only, see the shop.',
    });
    expect(result.degraded).toBe(false);
    expect(codes(result)).not.toContain('TEXT_LLM_UNAVAILABLE');
  });
});

describe('POST /v1/check without an LLM key but with the LLM wanted', () => {
  it('when the local score falls in the band, it answers from the local stages with degraded true', async () => {
    const detector = await startDetector({ TEXT_LLM_MODE: 'always' });
    try {
      const response = await check(detector.url, { title: 'hi', body: 'See you tomorrow at the station.' });
      const result = textResultSchema.parse(response.body);
      expect(result).toMatchObject({ degraded: true, engine: 'model' });
      expect(result.signals.llm).toBe('not_configured');
      expect(result.reasons.map((reason) => reason.code)).toContain('TEXT_LLM_UNAVAILABLE');
    } finally {
      await detector.stop();
    }
  });
});

describe('POST /v1/check with field limits configured', () => {
  it('when a field is over its MAX_* variable, it answers 400 naming that field', async () => {
    const detector = await startDetector({
      MAX_TITLE_LENGTH: '10',
      MAX_SUB_TITLE_LENGTH: '5',
      MAX_BODY_LENGTH: '20',
    });
    try {
      const within = await check(detector.url, {
        title: 't'.repeat(10),
        body: 'b'.repeat(20),
        sub_title: 's',
      });
      expect(within.status).toBe(200);
      for (const [body, path] of [
        [{ title: 't'.repeat(11), body: '' }, 'title'],
        [{ title: '', body: '', sub_title: 's'.repeat(6) }, 'sub_title'],
        [{ title: '', body: 'b'.repeat(21) }, 'body'],
      ] as const) {
        const response = await check(detector.url, body);
        expect(response.status).toBe(400);
        expect(response.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path }] });
      }
    } finally {
      await detector.stop();
    }
  });
});
