import { ConfigError } from '@spam-check/service-kit';
import { loadServiceConfig } from '../../src/config';

const production = {
  NODE_ENV: 'production',
  REDIS_URL: 'redis://redis:6379',
  AMQP_URL: 'amqp://spam-check:an-own-long-password@rabbitmq:5672',
  GATEWAY_CLIENT_ID: 'gateway',
  GATEWAY_CLIENT_SECRET: 'a-gateway-secret-of-our-own-0123',
  REVIEW_CONTENT_KEY: 'a-review-content-key-of-our-own-0123456789',
};

describe("the console's configuration", () => {
  it('outside production, signs in with the demo admin client and sets no Secure flag', () => {
    const { console } = loadServiceConfig({ NODE_ENV: 'development' });
    expect(console).toMatchObject({
      client: { id: 'demo-admin', secret: 'demo-admin-secret' },
      demoClient: true,
      idleSeconds: 1800,
      absoluteSeconds: 28800,
      secureCookie: false,
    });
  });

  it('in production, is off without its own client, and marks the cookie Secure', () => {
    expect(loadServiceConfig(production).console).toMatchObject({ client: undefined, secureCookie: true });
    const configured = loadServiceConfig({
      ...production,
      CONSOLE_CLIENT_ID: 'console',
      CONSOLE_CLIENT_SECRET: 'a-console-secret-of-our-own-0123',
      CONSOLE_SESSION_IDLE_SECONDS: '600',
    }).console;
    expect(configured).toMatchObject({ client: { id: 'console' }, demoClient: false, idleSeconds: 600 });
  });

  it('in production, refuses a published or short console secret, naming the variable', () => {
    for (const secret of ['demo-admin-secret', 'short']) {
      const load = () =>
        loadServiceConfig({ ...production, CONSOLE_CLIENT_ID: 'console', CONSOLE_CLIENT_SECRET: secret });
      expect(load).toThrow(ConfigError);
      expect(load).toThrow(/CONSOLE_CLIENT_SECRET/);
    }
  });

  it('refuses a session lifetime that is not a positive number of seconds', () => {
    expect(() => loadServiceConfig({ CONSOLE_SESSION_ABSOLUTE_SECONDS: '0' })).toThrow(
      /CONSOLE_SESSION_ABSOLUTE_SECONDS/,
    );
    expect(() => loadServiceConfig({ CONSOLE_SECURE_COOKIE: 'maybe' })).toThrow(/CONSOLE_SECURE_COOKIE/);
  });
});
