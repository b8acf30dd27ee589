import { createMailServerLookup } from '../../src/data-access/mail-server-lookup';
import { startLoopbackDnsServer, type LoopbackDnsServer } from './support/dns-server';

const mx = (exchange: string) => ({ mx: [{ preference: 10, exchange }] });

describe('MX lookup over node:dns against a loopback DNS server', () => {
  let dns: LoopbackDnsServer;

  beforeAll(async () => {
    dns = await startLoopbackDnsServer({
      'one.example': mx('mx1.one.example'),
      'two.example': mx('mx1.two.example'),
      'three.example': mx('mx1.three.example'),
      'ttl.example': mx('mx1.ttl.example'),
      'shared.example': mx('mx1.shared.example'),
      'prio.example': {
        mx: [
          { preference: 20, exchange: 'backup.prio.example' },
          { preference: 5, exchange: 'primary.prio.example' },
        ],
      },
      'servfail.example': 'servfail',
      'silent.example': 'silent',
    });
  });
  afterAll(() => dns.close());

  const lookupWith = (options: Partial<Parameters<typeof createMailServerLookup>[0]> = {}) =>
    createMailServerLookup({
      servers: [dns.address],
      timeoutMs: 300,
      cacheTtlMs: 60_000,
      cacheSize: 100,
      ...options,
    });

  it('lists MX hosts by preference', async () => {
    const lookup = lookupWith();
    expect(await lookup.lookup('prio.example')).toEqual({
      outcome: 'mx',
      hosts: ['primary.prio.example', 'backup.prio.example'],
    });
  });

  it('when the cache is full, the least recently used domain is evicted and queried again', async () => {
    const lookup = lookupWith({ cacheSize: 2 });
    await lookup.lookup('one.example');
    await lookup.lookup('two.example');
    await lookup.lookup('one.example');
    await lookup.lookup('three.example');
    expect(lookup.cacheSize()).toBe(2);
    await lookup.lookup('one.example');
    await lookup.lookup('two.example');
    expect(dns.queries.get('one.example MX')).toBe(1);
    expect(dns.queries.get('two.example MX')).toBe(2);
  });

  it('when an entry is older than the TTL, it is queried again', async () => {
    let now = 1_000;
    const lookup = lookupWith({ cacheTtlMs: 5_000, now: () => now });
    await lookup.lookup('ttl.example');
    now += 4_999;
    await lookup.lookup('ttl.example');
    expect(dns.queries.get('ttl.example MX')).toBe(1);
    now += 2;
    await lookup.lookup('ttl.example');
    expect(dns.queries.get('ttl.example MX')).toBe(2);
  });

  it('does not cache unknown outcomes, so a failing resolver is asked again', async () => {
    const lookup = lookupWith();
    expect(await lookup.lookup('servfail.example')).toEqual({ outcome: 'unknown', error: 'ESERVFAIL' });
    await lookup.lookup('servfail.example');
    expect(dns.queries.get('servfail.example MX')).toBe(2);
    expect(lookup.cacheSize()).toBe(0);
  });

  it('shares one query between concurrent lookups of a domain', async () => {
    const lookup = lookupWith();
    const [a, b] = await Promise.all([lookup.lookup('shared.example'), lookup.lookup('shared.example')]);
    expect(a).toEqual(b);
    expect(dns.queries.get('shared.example MX')).toBe(1);
  });

  it('when the server never answers, the lookup ends as unknown (ETIMEOUT) within its budget', async () => {
    const lookup = lookupWith({ timeoutMs: 200 });
    expect(await lookup.lookup('silent.example')).toEqual({ outcome: 'unknown', error: 'ETIMEOUT' });
    lookup.close();
  });
});
