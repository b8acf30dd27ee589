import { REASON_WEIGHTS } from '../../../src/domain/rules';
import { readme } from './support';

describe('the weight table', () => {
  it.each(Object.entries(REASON_WEIGHTS))(
    '%s is documented in the README with its weight',
    (code, weight) => {
      const row = readme.split('\n').find((line) => line.startsWith('|') && line.includes(`\`${code}\``));
      expect(row).toBeDefined();
      if (typeof weight === 'number') expect(row).toMatch(new RegExp(`\\| ${weight} \\|$`));
      else expect(row).toContain(`{base: ${weight.base}, step: ${weight.step}, max: ${weight.max}}`);
    },
  );
});
