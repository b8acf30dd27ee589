import { mailResultSchema, problemSchema } from '@spam-check/contracts';
import { startLoopbackDnsServer, type LoopbackDnsServer } from './support/dns-server';
import { detectorForSuite, startDetector, type StartedDetector } from './support/start-service';
import { WIDELY_USED } from '../unit/rules/labelled-domains';

const mx = (exchange: string) => ({ mx: [{ preference: 10, exchange }] });

describe('POST /v1/check with DNS on, against a loopback DNS server', () => {
  let dns: LoopbackDnsServer;
  let detector: StartedDetector;

  beforeAll(async () => {
    dns = await startLoopbackDnsServer({
      'with-mx.example': mx('mail.with-mx.example'),
      'cached.example': mx('mail.cached.example'),
      'only-a.example': { a: ['192.0.2.10'] },
      'only-aaaa.example': { aaaa: ['2001:db8::10'] },
      'null-mx.example': 'null_mx',
      'no-records.example': {},
      'silent.example': 'silent',
      'servfail.example': 'servfail',
      'gmail.com': mx('gmail-smtp-in.l.google.com'),
      // A real typo-squatting domain: it accepts mail, and disposable lists carry it.
      'gmial.com': mx('mx.gmial.com'),
      'bücher.de': mx('mx.bücher.de'),
      'xn--bcher-kva.de': mx('mx.xn--bcher-kva.de'),
    });
    detector = await startDetector({
      EMAIL_DNS_SERVERS: dns.address,
      EMAIL_DNS_TIMEOUT_MS: '300',
      EMAIL_ALLOW_LIST: 'trusted.example, boss@mailinator.com, both.example',
      EMAIL_DENY_LIST: 'blocked.example, spammer@with-mx.example, both.example',
    });
  });

  afterAll(async () => {
    await detector.stop();
    await dns.close();
  });

  async function check(email: string, headers?: Record<string, string>) {
    const response = await detector.check({ email }, headers);
    expect(response.status).toBe(200);
    expect(mailResultSchema.safeParse(response.body).error).toBeUndefined();
    return response.body as ReturnType<typeof mailResultSchema.parse>;
  }
  const codes = (result: { reasons: { code: string }[] }) => result.reasons.map((reason) => reason.code);

  it('when the domain has MX records, the address is valid ham with dns pass', async () => {
    const result = await check('Jane.Doe+news@With-MX.example');
    expect(result).toMatchObject({
      spam: false,
      verdict: 'ham',
      score: 0,
      valid: true,
      suggestion: null,
      email: {
        input: 'Jane.Doe+news@With-MX.example',
        normalized: 'Jane.Doe+news@with-mx.example',
        domain: 'with-mx.example',
        ascii_domain: 'with-mx.example',
      },
      checks: {
        syntax: { status: 'pass' },
        disposable: { status: 'pass' },
        role_account: { status: 'pass' },
        free_provider: { status: 'pass' },
        dns: { status: 'pass', detail: 'mx' },
      },
    });
    expect(result.reasons).toEqual([]);
    expect(result.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('when there is no MX but an A or AAAA record, the implicit MX (RFC 5321 §5.1) makes it valid', async () => {
    for (const domain of ['only-a.example', 'only-aaaa.example']) {
      const result = await check(`someone@${domain}`);
      expect(result).toMatchObject({
        verdict: 'ham',
        valid: true,
        checks: { dns: { status: 'pass', detail: 'implicit_mx' } },
      });
    }
    expect(dns.queries.get('only-a.example A')).toBe(1);
  });

  it('when the domain publishes a null MX (RFC 7505), it is invalid and spam', async () => {
    const result = await check('someone@null-mx.example');
    expect(result).toMatchObject({
      spam: true,
      verdict: 'spam',
      valid: false,
      checks: { dns: { status: 'fail', detail: 'null_mx' } },
    });
    expect(codes(result)).toEqual(['EMAIL_NULL_MX']);
    expect(result.reasons[0]!.message).toContain('null-mx.example');
  });

  it('when the domain does not exist (NXDOMAIN), it is invalid and spam', async () => {
    const result = await check('someone@does-not-exist.example');
    expect(result).toMatchObject({
      spam: true,
      valid: false,
      score: 0.9,
      checks: { dns: { status: 'fail', detail: 'nxdomain' } },
    });
    expect(codes(result)).toEqual(['EMAIL_DOMAIN_NOT_FOUND']);
  });

  it('when the domain exists without MX, A or AAAA, it is invalid and suspicious, not spam on its own', async () => {
    const result = await check('someone@no-records.example');
    expect(result).toMatchObject({ verdict: 'suspicious', spam: false, valid: false, score: 0.7 });
    expect(codes(result)).toEqual(['EMAIL_NO_MAIL_SERVER']);
  });

  it('when the DNS server never answers, the dns check is unknown and the address stays ham', async () => {
    const result = await check('someone@silent.example');
    expect(result).toMatchObject({
      spam: false,
      verdict: 'ham',
      score: 0,
      valid: true,
      checks: { dns: { status: 'unknown', detail: 'unknown' } },
    });
    expect(result.reasons).toEqual([expect.objectContaining({ code: 'EMAIL_DNS_UNKNOWN', weight: 0 })]);
    expect(dns.queries.get('silent.example MX')).toBeGreaterThanOrEqual(1);
  });

  it('when the DNS server fails (SERVFAIL), the dns check is unknown and never spam', async () => {
    const result = await check('someone@servfail.example');
    expect(result).toMatchObject({ verdict: 'ham', checks: { dns: { status: 'unknown' } } });
  });

  it('when the same domain is checked again, the answer comes from the cache', async () => {
    await check('first@cached.example');
    await check('second@cached.example');
    expect(dns.queries.get('cached.example MX')).toBe(1);
    expect(detector.checker.mailServers?.cacheSize()).toBeGreaterThan(0);
  });

  it('when the domain is internationalised, it looks up and reports the punycode form', async () => {
    const result = await check('Jürgen@Bücher.de');
    expect(result).toMatchObject({
      verdict: 'ham',
      email: { normalized: 'Jürgen@bücher.de', domain: 'bücher.de', ascii_domain: 'xn--bcher-kva.de' },
      checks: { dns: { status: 'pass' } },
    });
    expect(dns.queries.get('xn--bcher-kva.de MX')).toBe(1);
  });

  it('when the syntax is invalid, it answers 200 with valid false, spam and EMAIL_INVALID_SYNTAX', async () => {
    const result = await check('not an address');
    expect(result).toMatchObject({
      spam: true,
      verdict: 'spam',
      score: 1,
      valid: false,
      suggestion: null,
      email: { input: 'not an address', normalized: null, domain: null, ascii_domain: null },
      checks: { syntax: { status: 'fail', detail: 'forbidden_character' }, dns: { status: 'skipped' } },
    });
    expect(result.reasons).toEqual([
      {
        code: 'EMAIL_INVALID_SYNTAX',
        message: 'The address is not a syntactically valid e-mail address.',
        weight: 1,
      },
    ]);
  });

  it.each([
    ['a trailing CRLF', 'jane@with-mx.example\r\n'],
    ['a leading LF', '\njane@with-mx.example'],
    ['an injected header', 'jane@with-mx.example\r\nBcc: victim@with-mx.example'],
    ['a NUL', 'jane\u0000@with-mx.example'],
    ['a tab inside', 'jane\t@with-mx.example'],
    ['a C1 control', 'jane@with-mx.example\u0085'],
  ])('when the address carries %s, it is invalid spam with EMAIL_CONTROL_CHARACTERS', async (_, email) => {
    const result = await check(email, { 'accept-language': 'de' });
    expect(result).toMatchObject({
      spam: true,
      verdict: 'spam',
      score: 1,
      valid: false,
      email: { input: email, normalized: null },
      checks: { syntax: { status: 'fail', detail: 'control_character' }, dns: { status: 'skipped' } },
    });
    expect(result.reasons).toEqual([
      {
        code: 'EMAIL_CONTROL_CHARACTERS',
        message:
          'Die Adresse enthält Steuerzeichen (etwa Zeilenumbrüche), eine Technik der Header-Injection.',
        weight: 1,
      },
    ]);
  });

  it('when the address is surrounded by spaces and tabs only, they are trimmed and it is checked', async () => {
    const result = await check(' \tJane@With-MX.example\t ');
    expect(result).toMatchObject({ spam: false, valid: true, email: { normalized: 'Jane@with-mx.example' } });
  });

  it('when the domain is disposable, or a subdomain of one, it is spam without a DNS query', async () => {
    for (const email of [
      'someone@mailinator.com',
      'someone@x.mailinator.com',
      'someone@Deep.Sub.Yopmail.com',
    ]) {
      const result = await check(email);
      expect(result).toMatchObject({
        spam: true,
        checks: { disposable: { status: 'fail' }, dns: { status: 'skipped', detail: 'disposable_domain' } },
      });
      expect(codes(result)).toContain('EMAIL_DISPOSABLE_DOMAIN');
    }
    expect(dns.queries.has('x.mailinator.com MX')).toBe(false);
  });

  it('when a domain or address is on the deny list, it is spam; the allow list wins over it and over disposable', async () => {
    const denied = await check('anyone@sub.blocked.example');
    expect(denied).toMatchObject({
      spam: true,
      score: 1,
      checks: { dns: { status: 'skipped', detail: 'deny_listed' } },
    });
    expect(codes(denied)).toEqual(['EMAIL_DENY_LISTED']);
    expect(codes(await check('Spammer+x@with-mx.example'))).toEqual(['EMAIL_DENY_LISTED']);

    const allowedDisposable = await check('Boss@Mailinator.com');
    expect(allowedDisposable).toMatchObject({ spam: false, verdict: 'ham', score: 0 });
    expect(codes(allowedDisposable)).toEqual(['EMAIL_ALLOW_LISTED', 'EMAIL_DISPOSABLE_DOMAIN']);
    expect(codes(await check('someone@both.example'))).toEqual(['EMAIL_ALLOW_LISTED']);
    expect(await check('someone@trusted.example')).toMatchObject({
      verdict: 'ham',
      checks: { dns: { status: 'skipped', detail: 'allow_listed' } },
    });
  });

  it('when an allow-listed address has invalid syntax, it is still invalid (syntax comes first)', async () => {
    const result = await check('some one@trusted.example');
    expect(result).toMatchObject({ valid: false, spam: true });
    expect(codes(result)).toEqual(['EMAIL_INVALID_SYNTAX']);
  });

  it.each([
    ['spam@spam-check.test', 'spam', 1],
    ['Spam+ci-run-42@SPAM-CHECK.test', 'spam', 1],
    ['suspicious@spam-check.test', 'suspicious', 0.6],
    ['ham@spam-check.test', 'ham', 0],
  ])('fixture %s always gives %s (score %d) without a DNS query', async (email, verdict, score) => {
    const result = await check(email);
    expect(result).toMatchObject({
      verdict,
      score,
      valid: true,
      checks: { dns: { status: 'skipped', detail: 'test_fixture' } },
    });
    expect(codes(result)).toEqual(['EMAIL_TEST_FIXTURE']);
    expect(dns.queries.has('spam-check.test MX')).toBe(false);
  });

  it('when a popular domain is mistyped, it suggests the address at the right domain', async () => {
    const result = await check('Jane@gmial.com');
    expect(result.suggestion).toBe('Jane@gmail.com');
    expect(result.reasons).toContainEqual(
      expect.objectContaining({
        code: 'EMAIL_DOMAIN_TYPO',
        weight: 0.4,
        message: expect.stringContaining('Jane@gmail.com'),
      }),
    );
  });

  it('when the mistyped domain is also on a disposable list, the typo is reported, not a throw-away mailbox', async () => {
    const result = await check('max.mustermann@gmial.com');
    expect(result).toMatchObject({
      spam: false,
      suggestion: 'max.mustermann@gmail.com',
      checks: { disposable: { status: 'skipped', detail: 'typo_domain' } },
    });
    expect(codes(result)).not.toContain('EMAIL_DISPOSABLE_DOMAIN');
    expect(codes(result)).toContain('EMAIL_DOMAIN_TYPO');
  });

  it('when the local part looks random at a free provider, it is suspicious, not spam', async () => {
    const result = await check('x7k2m9p4q1zr@gmail.com');
    expect(result).toMatchObject({
      verdict: 'suspicious',
      spam: false,
      checks: { free_provider: { status: 'fail' } },
    });
    expect(codes(result).sort()).toEqual(['EMAIL_FREE_PROVIDER', 'EMAIL_RANDOM_LOCAL_PART']);
  });

  it('when a random local part meets a domain without mail server, the combination is spam', async () => {
    const result = await check('qxzvbnmtrkw@no-records.example');
    expect(result).toMatchObject({ verdict: 'spam', score: 0.835 });
  });

  it('answers in the language of Accept-Language (de, fr), with parameters filled in', async () => {
    const de = await check('admin@with-mx.example', { 'accept-language': 'de-DE,de;q=0.9' });
    expect(de.reasons).toEqual([
      {
        code: 'EMAIL_ROLE_ACCOUNT',
        message: 'Die Adresse ist ein Funktionspostfach (admin), keine Person.',
        weight: 0.3,
      },
    ]);
    const fr = await check('someone@null-mx.example', { 'accept-language': 'fr' });
    expect(fr.reasons[0]!.message).toBe(
      "Le domaine null-mx.example déclare n'accepter aucun e-mail (MX nul, RFC 7505).",
    );
  });

  it('when the body is not a mail check request, it answers the VALIDATION_FAILED problem', async () => {
    for (const body of [{}, { email: null }, { email: 42 }, { email: 'a'.repeat(1025) }]) {
      const response = await detector.check(body, { 'x-request-id': 'bad-body-1' });
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
      expect(problemSchema.parse(response.body)).toMatchObject({
        code: 'VALIDATION_FAILED',
        request_id: 'bad-body-1',
      });
      expect(response.body.errors[0].path).toBe('email');
    }
  });

  it('when another method is used, it answers 405 with Allow: POST', async () => {
    const response = await fetch(`${detector.url}/v1/check`);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });

  it('echoes the request id and counts checks by verdict in /metrics', async () => {
    const response = await detector.check(
      { email: 'metrics@with-mx.example' },
      { 'x-request-id': 'req-metrics-1' },
    );
    expect(response.body.request_id).toBe('req-metrics-1');
    expect(response.headers.get('x-request-id')).toBe('req-metrics-1');
    const metrics = await (await fetch(`${detector.url}/metrics`)).text();
    expect(metrics).toMatch(
      /email_checks_total\{verdict="ham",entry_point="http",service="email-detector"\} \d+/,
    );
    expect(metrics).toMatch(
      /email_dns_lookups_total\{outcome="mx",cached="true",service="email-detector"\} \d+/,
    );
  });
});

describe('POST /v1/check with DNS off (EMAIL_DNS_CHECK=off)', () => {
  const detector = detectorForSuite({ EMAIL_DNS_CHECK: 'off', EMAIL_DNS_SERVERS: '127.0.0.1:9' });

  it.each(WIDELY_USED)('a person at the widely used provider %s is never spam on its own', async (domain) => {
    const response = await detector.check({ email: `marie.dupont@${domain}` });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ spam: false, verdict: 'ham', valid: true, suggestion: null });
    expect(response.body.checks).toMatchObject({
      disposable: { status: 'pass' },
      dns: { status: 'skipped', detail: 'disabled' },
    });
    expect(mailResultSchema.safeParse(response.body).success).toBe(true);
  });

  it('when DNS is off, no lookup is made and a non-existent domain is not held against the address', async () => {
    const response = await detector.check({ email: 'someone@does-not-exist.example' });
    expect(response.body).toMatchObject({
      verdict: 'ham',
      valid: true,
      checks: { dns: { status: 'skipped' } },
    });
    expect(detector.checker.mailServers).toBeNull();
  });

  it('suggests hotmail.fr for hotmial.fr', async () => {
    const response = await detector.check({ email: 'luc@hotmial.fr' });
    expect(response.body).toMatchObject({ suggestion: 'luc@hotmail.fr', verdict: 'ham' });
  });
});

describe('POST /v1/check with MAX_EMAIL_LENGTH configured', () => {
  it('when the address is longer than MAX_EMAIL_LENGTH, it answers 400 naming the field', async () => {
    const detector = await startDetector({ EMAIL_DNS_CHECK: 'off', MAX_EMAIL_LENGTH: '20' });
    try {
      expect((await detector.check({ email: 'abcdefgh@example.org' })).status).toBe(200);
      const response = await detector.check({ email: 'abcdefghi@example.org' });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path: 'email' }] });
    } finally {
      await detector.stop();
    }
  });
});
