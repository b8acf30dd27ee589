import {
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
