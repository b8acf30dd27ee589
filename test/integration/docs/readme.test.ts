import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configSchema as authConfig } from '../../../services/auth/src/config';
import { configSchema as emailConfig } from '../../../services/email-detector/src/config';
import { configSchema as gatewayConfig } from '../../../services/gateway/src/config';
import { configSchema as textConfig } from '../../../services/text-detector/src/config';

const readme = readFileSync(join(__dirname, '..', '..', '..', 'README.md'), 'utf8');
const schemas = {
  gateway: gatewayConfig,
  auth: authConfig,
  'email-detector': emailConfig,
  'text-detector': textConfig,
};

describe('the README configuration section', () => {
  it.each(Object.entries(schemas))('documents every variable the %s reads', (_service, schema) => {
    const missing = Object.keys(schema.shape).filter((variable) => !readme.includes(`\`${variable}\``));
    expect(missing).toEqual([]);
  });

  it('starts with the two commands', () => {
    const commands = readme.indexOf('## The two commands');
    expect(commands).toBeGreaterThan(0);
    expect(readme.indexOf('## Configuration')).toBeGreaterThan(commands);
    expect(readme).toContain('pnpm start');
    expect(readme).toContain('pnpm test');
  });
});
