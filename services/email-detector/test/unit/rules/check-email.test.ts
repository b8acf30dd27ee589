import { SUPPORTED_LANGUAGES } from '@spam-check/contracts';
import { domainToASCII } from 'node:url';
import { checkEmail, type EmailCheckDeps } from '../../../src/domain/check-email';
import { createOperatorList } from '../../../src/domain/operator-lists';
import { REASON_WEIGHTS } from '../../../src/domain/scoring';
import { disposable } from './support';

describe('the rules together, through the domain function', () => {
  const deps: EmailCheckDeps = {
    disposableDomains: disposable,
    allowList: createOperatorList([], domainToASCII),
    denyList: createOperatorList([], domainToASCII),
    lookupMailServers: null,
  };

  it.each([
    ['x7k2m9p@gmx.de', ['EMAIL_FREE_PROVIDER'], 'ham'],
    ['x7k2m9p4@gmx.de', ['EMAIL_FREE_PROVIDER', 'EMAIL_RANDOM_LOCAL_PART'], 'suspicious'],
    ['admin@gmx.de', ['EMAIL_ROLE_ACCOUNT', 'EMAIL_FREE_PROVIDER'], 'ham'],
    ['jane@lapostte.nett', ['EMAIL_DOMAIN_TYPO'], 'ham'],
  ])('when %s is checked, the reasons are %j and the verdict %s', async (email, codes, verdict) => {
    for (const language of SUPPORTED_LANGUAGES) {
      const result = await checkEmail({ email, language, requestId: 'boundary' }, deps);
      expect(result.reasons.map((reason) => reason.code)).toEqual(codes);
      expect(result.reasons.map((reason) => reason.weight)).toEqual(
        codes.map((code) => REASON_WEIGHTS[code as keyof typeof REASON_WEIGHTS]),
      );
      expect(result.verdict).toBe(verdict);
    }
  });
});
