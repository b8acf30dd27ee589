import { freePort, spawnService, waitForExit, type ServiceName } from '@spam-check/process-kit';
import { redisUrl, writeBootstrapFile } from '@spam-check/test-support';

/**
 * Starts a service in production mode, waits for it to exit on its own (bounded: it must not serve) and
 * expects a failing exit code; answers what it logged.
 */
async function refusal(name: ServiceName, env: Record<string, string>): Promise<string> {
  const service = spawnService(
    name,
    {
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      REDIS_URL: redisUrl(),
      // Never connected to: each case is refused at start. Not guest:guest, which production refuses too.
      AMQP_URL: 'amqp://spam-check:an-own-long-rabbitmq-password@127.0.0.1:1',
      GATEWAY_MANAGEMENT_PORT: String(await freePort()),
      ...env,
    },
    await freePort(),
  );
  const code = await waitForExit(service.child);
  expect(code ?? -1).not.toBe(0);
  return service.output();
}

// Each case starts a process from the sources, bounded by its own CPU time (`waitForExit`): the test's clock
// only has to outlast a loaded machine.
jest.setTimeout(180_000);

describe('production mode refuses secrets published in this repository and short ones', () => {
  it.each([
    ['published in this repository', 'local-gateway-client-secret', /GATEWAY_CLIENT_SECRET: is published/],
    ['the embedded default', 'gateway-secret', /GATEWAY_CLIENT_SECRET: is published/],
    ['the embedded default in another case', 'Gateway-Secret', /GATEWAY_CLIENT_SECRET: is published/],
    // Long enough to pass the length rule: only the case-blind comparison refuses it.
    [
      'published in this repository, in another case',
      'Local-Gateway-CLIENT-Secret',
      /GATEWAY_CLIENT_SECRET: is published/,
    ],
    ['one character long', 'x', /GATEWAY_CLIENT_SECRET: shorter than 16 characters/],
  ])('the gateway exits at start when its client secret is %s', async (_, secret, message) => {
    const output = await refusal('gateway', {
      GATEWAY_CLIENT_ID: 'gateway',
      GATEWAY_CLIENT_SECRET: secret,
    });
    expect(output).toMatch(message);
    if (secret.length > 1) expect(output).not.toContain(secret);
  });

  it.each([
    ['missing', undefined, /REVIEW_CONTENT_KEY: required in production/],
    [
      'published in this repository',
      'development-review-content-key-not-for-production',
      /REVIEW_CONTENT_KEY: is published/,
    ],
    ['shorter than 32 characters', 'a-key-of-twenty-one-c', /REVIEW_CONTENT_KEY: shorter than 32 characters/],
  ])('the gateway exits at start when REVIEW_CONTENT_KEY is %s', async (_, key, message) => {
    const output = await refusal('gateway', {
      GATEWAY_CLIENT_ID: 'gateway',
      GATEWAY_CLIENT_SECRET: 'a-gateway-secret-of-our-own-0123',
      // A key of its own, so that only REVIEW_CONTENT_KEY is wrong.
      WEBHOOK_SECRET_KEY: 'a-webhook-secret-key-of-our-own-0123456789',
      ...(key === undefined ? {} : { REVIEW_CONTENT_KEY: key }),
    });
    expect(output).toMatch(message);
    if (key !== undefined) expect(output).not.toContain(key);
  });

  it.each([
    ['missing', undefined, /PRIVACY_HASH_KEY: required in production/],
    ['published in this repository', 'replace-me-with-openssl-rand-hex-32', /PRIVACY_HASH_KEY: is published/],
  ])('the e-mail detector exits at start when PRIVACY_HASH_KEY is %s', async (_, key, message) => {
    const output = await refusal('email-detector', key === undefined ? {} : { PRIVACY_HASH_KEY: key });
    expect(output).toMatch(message);
  });

  it('auth exits at start when its bootstrap file holds a published secret or a short password', async () => {
    const file = writeBootstrapFile({
      clients: [
        {
          id: 'shop',
          secret: 'compose-demo-secret',
          grants: ['password', 'refresh_token'],
          scopes: ['spam:check'],
        },
      ],
      users: [
        { username: 'dev-user', password: 'dev-demo-password' },
        { username: 'short-user', password: 'abc' },
      ],
    });
    const output = await refusal('auth', {
      AUTH_BOOTSTRAP_FILE: file,
      AUTH_REDIS_PREFIX: `production-secrets-${Date.now()}:`,
      GATEWAY_CLIENT_ID: 'gateway',
      GATEWAY_CLIENT_SECRET: 'a-long-enough-own-secret-for-the-test',
    });
    expect(output).toMatch(/client shop secret: is published/);
    expect(output).toMatch(/user dev-user password: is published/);
    expect(output).toMatch(/user short-user password: shorter than 16 characters/);
    expect(output).not.toMatch(/compose-demo-secret|dev-demo-password/);
  });

  it.each([
    [
      'text-detector',
      'a published Redis password',
      { REDIS_URL: 'redis://:Local-Redis-Password@127.0.0.1:1' },
      /REDIS_URL: its password is published/,
    ],
    [
      'email-detector',
      "RabbitMQ's guest:guest",
      { AMQP_URL: 'amqp://guest:guest@127.0.0.1:1' },
      /AMQP_URL: RabbitMQ's default user guest/,
    ],
    [
      'text-detector',
      "RabbitMQ's guest, percent-encoded",
      { AMQP_URL: 'amqp://%67uest:an-own-long-rabbitmq-password@127.0.0.1:1' },
      /AMQP_URL: RabbitMQ's default user guest/,
    ],
    [
      'email-detector',
      'a published RabbitMQ password, percent-encoded',
      { AMQP_URL: 'amqp://spam-check:%64ev-rabbitmq-password@127.0.0.1:1' },
      /AMQP_URL: its password is published/,
    ],
    [
      'gateway',
      'a published RabbitMQ password',
      {
        AMQP_URL: 'amqp://spam-check:dev-rabbitmq-password@127.0.0.1:1',
        GATEWAY_CLIENT_ID: 'gateway',
        GATEWAY_CLIENT_SECRET: 'a-long-enough-own-secret-for-the-test',
      },
      /AMQP_URL: its password is published/,
    ],
  ] as const)('the %s exits at start when its URL holds %s', async (name, _, env, message) => {
    const output = await refusal(name, { ...env });
    expect(output).toMatch(message);
    expect(output).not.toMatch(/Local-Redis-Password|dev-rabbitmq-password/);
  });
});
