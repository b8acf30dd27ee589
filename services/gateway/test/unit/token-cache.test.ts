import type { Introspection } from '@spam-check/contracts';
import { TokenCache } from '../../src/data-access/token-cache';

const HOUR = 3600_000;
const active = (client: string, exp = Math.floor(Date.now() / 1000) + 3600): Introspection => ({
  active: true,
  scope: 'spam:check',
  client_id: client,
  username: 'demo',
  token_type: 'Bearer',
  exp,
  iat: Math.floor(Date.now() / 1000),
});

describe('the token cache', () => {
  it('when it is full, the least recently used entry goes', () => {
    const cache = new TokenCache(3, HOUR);
    cache.set('a', active('a'));
    cache.set('b', active('b'));
    cache.set('c', active('c'));
    // `a` is the oldest but read: the next oldest, unread, goes.
    expect(cache.get('a')?.active).toBe(true);
    cache.set('d', active('d'));
    expect(cache.size).toBe(3);
    expect(cache.get('b')).toBeUndefined();
    expect(['a', 'c', 'd'].map((key) => cache.get(key)?.active)).toEqual([true, true, true]);
  });

  it('when its TTL is 0, it keeps nothing', () => {
    const cache = new TokenCache(3, 0);
    cache.set('a', active('a'));
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('when many tokens arrive, it never holds more than its bound and keeps the newest', () => {
    const cache = new TokenCache(10, HOUR);
    for (let i = 0; i < 100; i++) {
      cache.set(`t${i}`, active(`c${i}`));
      cache.get(`t${i % 7}`);
    }
    expect(cache.size).toBe(10);
    expect(cache.get('t99')?.active).toBe(true);
  });

  it('forgets an entry at its TTL, and never keeps one past the token expiry', () => {
    let now = 1_000_000;
    const cache = new TokenCache(10, 60_000, () => now);
    cache.set('ttl', active('x'));
    cache.set('exp', active('y', Math.floor(now / 1000) + 5));
    now += 5_000;
    expect(cache.get('exp')).toBeUndefined();
    expect(cache.get('ttl')?.active).toBe(true);
    now += 55_000;
    expect(cache.get('ttl')).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});
