import { loadServiceConfig } from '../../src/config';
import { nextRetryDelay, retryDelays } from '../../src/domain/webhook-retry';
import { addressAllowed, targetUrlProblem } from '../../src/domain/webhook-target';

describe('webhook retries', () => {
  const policy = { baseMs: 1000, maxDelayMs: 5000, windowMs: 60_000 };

  it('when attempts fail, each wait doubles up to the maximum, from a fixed ladder', () => {
    expect(retryDelays(policy)).toEqual([1000, 2000, 4000, 5000]);
    expect([1, 2, 3, 4, 9].map((attempts) => nextRetryDelay(policy, attempts, 0, 0))).toEqual([
      1000, 2000, 4000, 5000, 5000,
    ]);
  });

  it('when the next attempt would start after the window, the delivery is given up', () => {
    expect(nextRetryDelay(policy, 1, 0, 58_000)).toBe(1000);
    expect(nextRetryDelay(policy, 1, 0, 59_500)).toBeUndefined();
  });
});

describe('webhook targets', () => {
  const strict = { httpsOnly: true, allowPrivate: false };
  const lax = { httpsOnly: false, allowPrivate: true };

  it('when private targets are not allowed, internal addresses are refused and public ones pass', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
    ])
      expect([address, addressAllowed(address, strict)]).toEqual([address, false]);
    for (const address of ['93.184.215.14', '2606:4700::1111'])
      expect([address, addressAllowed(address, strict)]).toEqual([address, true]);
    expect(addressAllowed('127.0.0.1', lax)).toBe(true);
  });

  it('when in production, only https is a target; a literal internal address is refused before any DNS', () => {
    expect(targetUrlProblem(new URL('http://example.com/hook'), strict)).toBe('https_only');
    expect(targetUrlProblem(new URL('https://example.com/hook'), strict)).toBeUndefined();
    expect(targetUrlProblem(new URL('https://[::1]/hook'), strict)).toBe('address_not_allowed');
    expect(targetUrlProblem(new URL('https://169.254.169.254/latest'), strict)).toBe('address_not_allowed');
    expect(targetUrlProblem(new URL('http://127.0.0.1:8080/hook'), lax)).toBeUndefined();
  });
});

describe('WEBHOOK_SECRET_KEY', () => {
  const production = {
    NODE_ENV: 'production',
    REDIS_URL: 'redis://redis:6379',
    AMQP_URL: 'amqp://spam-check:an-own-long-rabbitmq-password@rabbitmq:5672',
    GATEWAY_CLIENT_ID: 'gateway',
    GATEWAY_CLIENT_SECRET: 'a-gateway-secret-of-our-own-0123',
    REVIEW_CONTENT_KEY: 'a-review-content-key-of-our-own-0123456789',
  };

  it('when in production, a missing, published or short key is refused, naming the variable', () => {
    for (const [key, message] of [
      [undefined, /WEBHOOK_SECRET_KEY: required in production/],
      ['development-webhook-secret-key-not-for-production', /WEBHOOK_SECRET_KEY: is published/],
      ['short', /WEBHOOK_SECRET_KEY: shorter than 32/],
    ] as const)
      expect(() => loadServiceConfig({ ...production, ...(key ? { WEBHOOK_SECRET_KEY: key } : {}) })).toThrow(
        message,
      );
    const key = 'a-webhook-secret-key-of-our-own-0123456789';
    expect(loadServiceConfig({ ...production, WEBHOOK_SECRET_KEY: key }).webhooks).toMatchObject({
      secretKey: key,
      httpsOnly: true,
      allowPrivate: false,
    });
  });
});
