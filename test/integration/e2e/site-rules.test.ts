import { randomUUID } from 'node:crypto';
import {
  hybridResultSchema,
  problemSchema,
  textBatchResultSchema,
  textResultSchema,
  type TextResult,
} from '@spam-check/contracts';
import { startStack, type Stack } from '@spam-check/process-kit';
import { runAccount, runClient, runUser, sharedStackEnv } from '@spam-check/test-support';
import { callJson, obtainServerToken, obtainToken, postJson, request, within } from './client';
import { removeRunKeys } from './redis-keys';
import { removeRunQueues } from '../../../services/gateway/test/integration/support/queues';

// A client's site rules (`text_rules`: allowed languages, most links) through the gateway with the real
// services, Redis and RabbitMQ: set with the admin API, applied to that client's text checks, the text part of
// its hybrid checks (in parallel and step by step) and its text batches, and bad values refused.

/** A change of settings holds on every process within this (the admin API's promise). */
const SETTINGS_HOLD_MS = 1000;

const codes = (result: { reasons: { code: string }[] }) => result.reasons.map((reason) => reason.code);
const links = (count: number) =>
  Array.from({ length: count }, (_, i) => `https://rezepte.example/seite-${i}`).join(' und ');

// The ham test fixture fixes the cascade's verdict at ham (score 0), so what a rule adds shows alone.
const GERMAN = 'Vielen Dank für das schöne Rezept, wir backen den Kuchen am Sonntag mit den Kindern.';
const ENGLISH = 'Thank you for the lovely recipe, we will bake the cake on Sunday with the children.';
const fixed = (body: string) => ({ title: 'Kommentar spam-check-test-ham', body });

describe('site rules (text_rules), end to end', () => {
  const run = randomUUID().slice(0, 8);
  const prefix = `site-rules-${run}:`;
  const admin = runAccount(`site-admin-${run}`);
  const ruled = runAccount(`site-ruled-${run}`);
  const plain = runAccount(`site-plain-${run}`);
  let stack: Stack;
  let adminToken: string;
  const tokens: Record<'ruled' | 'plain', string> = { ruled: '', plain: '' };

  const adminCall = (method: string, path: string, body?: unknown) =>
    callJson(method, `${stack.gateway}${path}`, adminToken, body);
  const settingsPath = `/deapi/v1/admin/clients/${ruled.client}/settings`;

  const checkText = async (body: unknown, who: 'ruled' | 'plain' = 'ruled'): Promise<TextResult> => {
    const response = await postJson(`${stack.gateway}/deapi/v1/spam/text`, tokens[who], body);
    expect(response.status).toBe(200);
    return textResultSchema.parse(response.body);
  };

  /** Sets the rules and waits until a check shows them (or their absence) held. */
  async function setRules(textRules: unknown, holds: (result: TextResult) => boolean): Promise<void> {
    const put = await adminCall('PUT', settingsPath, { text_rules: textRules });
    expect(put.status).toBe(200);
    const result = await within(SETTINGS_HOLD_MS, () => checkText(fixed(ENGLISH)), holds);
    expect(holds(result)).toBe(true);
  }

  beforeAll(async () => {
    const checker = (who: typeof ruled) => runClient(who, ['spam:check'], ['client_credentials']);
    const env = {
      ...sharedStackEnv(prefix, {
        clients: [runClient(admin, ['spam:admin']), checker(ruled), checker(plain)],
        users: [runUser(admin, ['spam:admin'])],
      }),
      CLIENT_SETTINGS_PREFIX: `${prefix}settings:`,
      CLIENT_SETTINGS_CHANNEL: `${prefix}settings`,
    };
    stack = await startStack(env, { readyTimeoutMs: 180_000 });
    adminToken = (await obtainToken(stack.gateway, '/de', admin)).body.access_token;
    tokens.ruled = (await obtainServerToken(stack.gateway, '/de', ruled)).body.access_token;
    tokens.plain = (await obtainServerToken(stack.gateway, '/de', plain)).body.access_token;
    expect(adminToken && tokens.ruled && tokens.plain).toBeTruthy();
    await setRules({ allowed_languages: ['de', 'fr'], max_links: 2 }, (result) =>
      codes(result).includes('TEXT_LANGUAGE_NOT_ALLOWED'),
    );
  }, 400_000);

  afterAll(async () => {
    await stack?.stop();
    await removeRunKeys(prefix);
    await removeRunQueues(prefix);
  });

  it('when the admin API set the rules, reading the settings gives them back', async () => {
    const read = await adminCall('GET', settingsPath);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ text_rules: { allowed_languages: ['de', 'fr'], max_links: 2 } });
  });

  it('when a text is in a language the site does not take, it is suspicious with TEXT_LANGUAGE_NOT_ALLOWED in German', async () => {
    const result = await checkText(fixed(ENGLISH));
    expect(result).toMatchObject({ language: 'en', verdict: 'suspicious', spam: false, engine: 'rules' });
    expect(result.score).toBeGreaterThanOrEqual(0.5);
    const reason = result.reasons.find((r) => r.code === 'TEXT_LANGUAGE_NOT_ALLOWED');
    expect(reason?.message).toBe(
      'Der Text ist in einer Sprache geschrieben, die diese Site nicht annimmt (en; erlaubt: de, fr).',
    );
  });

  it('when a text without a fixture is in another language, the rule applies over the model too', async () => {
    const result = await checkText({ title: 'Recipe', body: ENGLISH });
    expect(codes(result)).toContain('TEXT_LANGUAGE_NOT_ALLOWED');
    expect(result.verdict).not.toBe('ham');
  });

  it('when a text is in an allowed language with as many links as allowed, no site rule speaks', async () => {
    const result = await checkText(fixed(`${GERMAN} ${links(2)}`));
    expect(result.language).toBe('de');
    expect(result.signals.links).toBe(2);
    expect(result.verdict).toBe('ham');
    expect(codes(result)).not.toContain('TEXT_TOO_MANY_LINKS');
    expect(codes(result)).not.toContain('TEXT_LANGUAGE_NOT_ALLOWED');
  });

  it('when a text holds more links than allowed it is suspicious, and spam from twice as many', async () => {
    const three = await checkText(fixed(`${GERMAN} ${links(3)}`));
    expect(three).toMatchObject({ verdict: 'suspicious', engine: 'rules' });
    expect(three.reasons[0]).toMatchObject({ code: 'TEXT_TOO_MANY_LINKS' });
    expect(three.reasons[0]?.message).toBe(
      'Der Text enthält 3 Link(s), mehr als die 2, die diese Site erlaubt.',
    );
    const four = await checkText(fixed(`${GERMAN} ${links(4)}`));
    expect(four).toMatchObject({ verdict: 'spam', spam: true, engine: 'rules' });
    expect(four.score).toBeGreaterThanOrEqual(0.8);
    expect(codes(four)).toContain('TEXT_TOO_MANY_LINKS');
  });

  it('when another client sends the same texts, its checks know nothing of these rules', async () => {
    const result = await checkText(fixed(`${ENGLISH} ${links(4)}`), 'plain');
    expect(result.verdict).toBe('ham');
    expect(codes(result)).toEqual(['TEXT_TEST_FIXTURE']);
  });

  it('when a hybrid check runs in parallel or step by step, its text part gets the rules', async () => {
    const body = { ...fixed(`${GERMAN} ${links(3)}`), email: 'ham@spam-check.test' };
    for (const stepByStep of ['false', 'true']) {
      const response = await postJson(`${stack.gateway}/frapi/v1/spam/hybrid-check`, tokens.ruled, body, {
        'X-Internal-Step-By-Step': stepByStep,
      });
      expect(response.status).toBe(200);
      const result = hybridResultSchema.parse(response.body);
      expect(result.mode).toBe(stepByStep === 'true' ? 'step_by_step' : 'parallel');
      expect(result.text?.verdict).toBe('suspicious');
      expect(result.verdict).toBe('suspicious');
      const reason = result.text?.reasons.find((r) => r.code === 'TEXT_TOO_MANY_LINKS');
      expect(reason?.message).toBe('Le texte contient 3 lien(s), plus que les 2 que ce site autorise.');
    }
  });

  it('when a text batch is checked, each item gets the rules', async () => {
    const response = await postJson(`${stack.gateway}/deapi/v1/spam/text/batch`, tokens.ruled, {
      items: [fixed(GERMAN), fixed(ENGLISH), fixed(`${GERMAN} ${links(5)}`)],
    });
    expect(response.status).toBe(200);
    const body = textBatchResultSchema.parse(response.body);
    expect(body.results.map((result) => ('verdict' in result ? result.verdict : 'error'))).toEqual([
      'ham',
      'suspicious',
      'spam',
    ]);
    expect(body.summary).toEqual({ ham: 1, suspicious: 1, spam: 1 });
  });

  it.each([
    ['no language', { allowed_languages: [] }, 'text_rules.allowed_languages'],
    ['a language in capitals', { allowed_languages: ['DE'] }, 'text_rules.allowed_languages.0'],
    ['a three-letter code', { allowed_languages: ['deu'] }, 'text_rules.allowed_languages.0'],
    ['a string for the list', { allowed_languages: 'de' }, 'text_rules.allowed_languages'],
    ['negative links', { max_links: -1 }, 'text_rules.max_links'],
    ['a fraction of a link', { max_links: 1.5 }, 'text_rules.max_links'],
    ['links as a string', { max_links: '3' }, 'text_rules.max_links'],
    ['too many links', { max_links: 1001 }, 'text_rules.max_links'],
    ['an unknown rule', { max_link: 3 }, 'text_rules'],
  ])(
    'when the rules have %s, the admin API answers 400 and keeps the rules it had',
    async (_, rules, path) => {
      const answer = await adminCall('PUT', settingsPath, { text_rules: rules });
      expect(answer.status).toBe(400);
      const problem = problemSchema.parse(answer.body);
      expect(problem.code).toBe('VALIDATION_FAILED');
      expect(problem.errors?.map((error) => error.path)).toContain(path);
      const read = await adminCall('GET', settingsPath);
      expect(read.body.text_rules).toEqual({ allowed_languages: ['de', 'fr'], max_links: 2 });
    },
  );

  describe('set by the client itself (/api/v1/settings/text-rules, scope spam:check)', () => {
    const own = (method: string, body?: unknown, token: string | undefined = tokens.plain) =>
      request(`${stack.gateway}/frapi/v1/settings/text-rules`, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const plainSettings = `/api/v1/admin/clients/${plain.client}/settings`;

    it('when a client sets its own rules, they apply to its checks and the rest of its settings stays', async () => {
      expect((await adminCall('PUT', plainSettings, { text: { deny_terms: ['zebracorn'] } })).status).toBe(
        200,
      );
      expect((await own('GET')).body).toEqual({});
      const put = await own('PUT', { max_links: 1 });
      expect(put.status).toBe(200);
      expect(put.headers.get('cache-control')).toBe('no-store');
      expect(put.body).toEqual({ max_links: 1 });
      expect((await own('GET')).body).toEqual({ max_links: 1 });
      expect((await adminCall('GET', plainSettings)).body).toEqual({
        text: { deny_terms: ['zebracorn'] },
        text_rules: { max_links: 1 },
      });
      const result = await within(
        SETTINGS_HOLD_MS,
        () => checkText(fixed(`${GERMAN} ${links(2)}`), 'plain'),
        (checked) => checked.verdict === 'spam',
      );
      expect(result).toMatchObject({ verdict: 'spam', engine: 'rules' });
      expect(codes(result)).toContain('TEXT_TOO_MANY_LINKS');
      // The other client's rules are its own.
      expect((await adminCall('GET', settingsPath)).body.text_rules).toEqual({
        allowed_languages: ['de', 'fr'],
        max_links: 2,
      });
    });

    it('when the rules are bad, it is 400 in the request language and nothing changes', async () => {
      const before = (await adminCall('GET', plainSettings)).body;
      for (const bad of [{ max_links: -2 }, { allowed_languages: ['french'] }, { mail: {} }, []]) {
        const answer = await own('PUT', bad);
        expect(answer.status).toBe(400);
        expect(problemSchema.parse(answer.body)).toMatchObject({ code: 'VALIDATION_FAILED' });
        expect(answer.body.detail).toMatch(/champs|requête/);
      }
      expect((await adminCall('GET', plainSettings)).body).toEqual(before);
    });

    it('when there is no token or another method, it is 401 or 405 with Allow', async () => {
      expect((await own('GET', undefined, '')).status).toBe(401);
      expect((await own('PUT', { max_links: 3 }, '')).status).toBe(401);
      const deleted = await own('DELETE');
      expect(deleted.status).toBe(405);
      expect(deleted.headers.get('allow')).toBe('GET, PUT');
    });
  });

  it('when the rules are set to null, any language and any number of links pass again', async () => {
    await setRules(
      { allowed_languages: null, max_links: null },
      (result) => !codes(result).includes('TEXT_LANGUAGE_NOT_ALLOWED'),
    );
    const result = await checkText(fixed(`${ENGLISH} ${links(6)}`));
    expect(result.verdict).toBe('ham');
    expect(codes(result)).toEqual(['TEXT_TEST_FIXTURE']);
  });
});
