import { DETECTOR_RPC_QUEUES } from '@spam-check/contracts';
import { ConfigError } from '@spam-check/service-kit';
import { loadServiceConfig } from '../../src/config';

describe('configuration', () => {
  it('has working defaults: DNS on with system resolvers, empty operator lists, the standard queue', () => {
    expect(loadServiceConfig({})).toMatchObject({
      port: 8082,
      EMAIL_DNS_CHECK: true,
      EMAIL_DNS_SERVERS: [],
      EMAIL_DNS_TIMEOUT_MS: 1500,
      EMAIL_DNS_CACHE_TTL_S: 300,
      EMAIL_DNS_CACHE_SIZE: 10_000,
      EMAIL_ALLOW_LIST: [],
      EMAIL_DENY_LIST: [],
      EMAIL_RPC_QUEUE: DETECTOR_RPC_QUEUES.email,
    });
  });

  it('reads the DNS switch, resolvers and operator lists', () => {
    expect(
      loadServiceConfig({
        EMAIL_DNS_CHECK: 'off',
        EMAIL_DNS_SERVERS: '127.0.0.1:5353, 9.9.9.9, [::1]:53, 2001:db8::1',
        EMAIL_ALLOW_LIST: 'partner.example, boss@mailinator.com',
        EMAIL_DETECTOR_PORT: '9000',
      }),
    ).toMatchObject({
      port: 9000,
      EMAIL_DNS_CHECK: false,
      EMAIL_DNS_SERVERS: ['127.0.0.1:5353', '9.9.9.9', '[::1]:53', '2001:db8::1'],
      EMAIL_ALLOW_LIST: ['partner.example', 'boss@mailinator.com'],
    });
  });

  it('when values are bad, it reports every one of them at once', () => {
    const load = () =>
      loadServiceConfig({
        EMAIL_DNS_SERVERS: 'dns.example.com',
        EMAIL_DNS_TIMEOUT_MS: '0',
        EMAIL_DNS_CHECK: 'maybe',
      });
    expect(load).toThrow(ConfigError);
    try {
      load();
    } catch (error) {
      const problems = (error as ConfigError).problems.join('\n');
      expect(problems).toMatch(/EMAIL_DNS_SERVERS/);
      expect(problems).toMatch(/EMAIL_DNS_TIMEOUT_MS/);
      expect(problems).toMatch(/EMAIL_DNS_CHECK/);
    }
  });

  it('when NODE_ENV is production, it refuses to run without AMQP_URL or REDIS_URL', () => {
    const OWN_AMQP = 'amqp://spam-check:an-own-long-password@rabbit:5672';
    expect(() => loadServiceConfig({ NODE_ENV: 'production' })).toThrow(/AMQP_URL/);
    expect(() => loadServiceConfig({ NODE_ENV: 'production', AMQP_URL: OWN_AMQP })).toThrow(/REDIS_URL/);
    expect(() =>
      loadServiceConfig({ NODE_ENV: 'production', AMQP_URL: OWN_AMQP, REDIS_URL: 'redis://redis:6379' }),
    ).toThrow(/PRIVACY_HASH_KEY: required in production/);
    const config = loadServiceConfig({
      NODE_ENV: 'production',
      AMQP_URL: OWN_AMQP,
      REDIS_URL: 'redis://redis:6379',
      PRIVACY_HASH_KEY: 'k'.repeat(64),
    });
    expect(config.AMQP_URL).toEqual([OWN_AMQP]);
    expect(config.privacyHashKey).toBe('k'.repeat(64));
  });
});
