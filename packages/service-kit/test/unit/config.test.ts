import {
  amqpConfigShape,
  ConfigError,
  commonConfigShape,
  env,
  loadConfig,
  secretProblems,
  servicePort,
} from '@spam-check/service-kit';
import { z } from 'zod';

const schema = z.object({
  ...commonConfigShape,
  SOME_TIMEOUT_MS: env.positiveInt(100),
  FEATURE: env.flag(false),
});

describe('loadConfig', () => {
  it('when nothing is set, it returns the defaults', () => {
    const config = loadConfig(schema, {});
    expect(config).toMatchObject({
      LANGUAGES: ['de', 'fr', 'en'],
      LOG_LEVEL: 'info',
      SOME_TIMEOUT_MS: 100,
      FEATURE: false,
    });
  });

  it('when several variables are bad, it reports all of them at once', () => {
    let error: unknown;
    try {
      loadConfig(schema, { LANGUAGES: 'de,xx', LOG_LEVEL: 'loud', SOME_TIMEOUT_MS: '-1', FEATURE: 'maybe' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const variable of ['LANGUAGES', 'LOG_LEVEL', 'SOME_TIMEOUT_MS', 'FEATURE'])
      expect(problems).toContain(variable);
  });

  it('when the service port is not set, PORT is honoured, else the default', () => {
    expect(servicePort({ GATEWAY_PORT: '9000', PORT: '7000' }, 'GATEWAY_PORT', 8080)).toBe(9000);
    expect(servicePort({ PORT: '7000' }, 'GATEWAY_PORT', 8080)).toBe(7000);
    expect(servicePort({}, 'GATEWAY_PORT', 8080)).toBe(8080);
  });
});

describe('secretProblems', () => {
  it('in production, refuses secrets published in this repository and ones under 16 characters, by name only', () => {
    const problems = secretProblems('production', {
      A_SECRET: 'local-gateway-client-secret',
      B_SECRET: 'compose-demo-password',
      C_SECRET: 'x',
      D_SECRET: '0123456789abcde',
      E_SECRET: '0123456789abcdef',
      F_SECRET: undefined,
    });
    expect(problems).toEqual([
      expect.stringMatching(/^A_SECRET: is published in this repository/),
      expect.stringMatching(/^B_SECRET: is published in this repository/),
      expect.stringMatching(/^C_SECRET: shorter than 16 characters/),
      expect.stringMatching(/^D_SECRET: shorter than 16 characters/),
    ]);
    expect(problems.join('\n')).not.toMatch(/local-gateway-client-secret|compose-demo-password/);
  });

  it('outside production, accepts the demo secrets', () => {
    expect(secretProblems('development', { GATEWAY_CLIENT_SECRET: 'gateway-secret' })).toEqual([]);
    expect(secretProblems('test', { X: 'x' })).toEqual([]);
  });
});

describe('AMQP_URL and RPC_QUEUE_TYPE', () => {
  const amqpSchema = z.object({ NODE_ENV: z.string().optional(), ...amqpConfigShape });
  const problemsOf = (source: Record<string, string>): string[] => {
    try {
      loadConfig(amqpSchema, source);
    } catch (error) {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    }
    return [];
  };

  it('when AMQP_URL lists several brokers, each is kept in order and the RPC queues are quorum queues', () => {
    const config = loadConfig(amqpSchema, {
      AMQP_URL: ' amqp://u:p@node-a:5672 ,amqps://u:p@node-b:5671?heartbeat=10,, amqp://u:p%2Cx@node-c ',
    });
    expect(config.AMQP_URL).toEqual([
      'amqp://u:p@node-a:5672',
      'amqps://u:p@node-b:5671?heartbeat=10',
      'amqp://u:p%2Cx@node-c',
    ]);
    expect(config.RPC_QUEUE_TYPE).toBe('quorum');
    expect(loadConfig(amqpSchema, { RPC_QUEUE_TYPE: 'classic' }).AMQP_URL).toBeUndefined();
  });

  it('when an item is no AMQP URL or the list is empty, or the queue type is unknown, each is refused without showing the URL', () => {
    const problems = problemsOf({
      AMQP_URL: 'amqp://u:secret-a@a,http://u:secret-b@b',
      RPC_QUEUE_TYPE: 'stream',
    });
    expect(problems).toEqual([
      expect.stringMatching(/^AMQP_URL: must be amqp:\/\/ or amqps:\/\/ URLs separated by commas; 1 of 2/),
      expect.stringMatching(/^RPC_QUEUE_TYPE:/),
    ]);
    expect(problems.join('\n')).not.toContain('secret');
    expect(problemsOf({ AMQP_URL: ' , ' })).toEqual([expect.stringMatching(/^AMQP_URL: .*got none/)]);
  });

  it('in production, the credentials of every broker of the list are checked, each named by its place', () => {
    const problems = problemsOf({
      NODE_ENV: 'production',
      AMQP_URL: 'amqp://own:an-own-long-password@a,amqp://guest:guest@b,amqp://own:Dev-RabbitMQ-Password@c',
    });
    expect(problems).toEqual([
      "AMQP_URL (broker 2 of 3): RabbitMQ's default user guest (published password); use a user of your own",
      'AMQP_URL (broker 3 of 3): its password is published in this repository; choose your own',
    ]);
    expect(problemsOf({ NODE_ENV: 'production', AMQP_URL: 'amqp://b' })).toEqual([
      "AMQP_URL: RabbitMQ's default user guest (published password); use a user of your own",
    ]);
  });
});
