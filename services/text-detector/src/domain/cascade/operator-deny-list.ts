import { REASON_WEIGHTS } from '../rules';
import type { Stage } from './types';

/**
 * The operator's deny list (TEXT_DENY_TERMS, ../rules/deny-list.ts). The rules:
 * - a text containing a listed term is spam, whatever follows (fixtures, the client, the model);
 * - the answer lists the deny-list reason first, then every rule finding.
 */
export const operatorDenyList: Stage = {
  name: 'operator deny list',
  reads: 'text',
  decide: (check, tools) =>
    tools.denyList(check.rules.lower)
      ? {
          score: 1,
          engine: 'rules',
          reasons: [
            { code: 'TEXT_DENY_LISTED', weight: REASON_WEIGHTS.TEXT_DENY_LISTED },
            ...check.rules.findings,
          ],
        }
      : undefined,
};
