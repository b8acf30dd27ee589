import type { Stage } from './types';
import { deniedBy } from './verdict';

/**
 * The operator's deny list (TEXT_DENY_TERMS, ../rules/deny-list.ts). The rules:
 * - a text containing a listed term is spam, whatever follows (fixtures, the client, the model);
 * - the answer lists the deny-list reason first, then every rule finding.
 */
export const operatorDenyList: Stage = {
  name: 'operator deny list',
  reads: 'text',
  decide: (check, tools) =>
    tools.denyList(check.rules.lower) ? deniedBy('TEXT_DENY_LISTED', check.rules.findings) : undefined,
};
