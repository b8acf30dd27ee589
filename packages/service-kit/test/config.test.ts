import { ConfigError, commonConfigShape, env, loadConfig, servicePort } from '@spam-check/service-kit';
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
