import type { Stage } from './types';
import { deniedBy } from './verdict';

/**
 * The calling client's own deny terms (its settings' `deny_terms`). The rules:
 * - a text containing one of them is spam for that client only, before its reports and the model;
 * - the answer lists the client deny-list reason first, then every rule finding.
 */
export const clientDenyList: Stage = {
  name: 'client deny list',
  reads: 'text',
  decide: (check, tools) =>
    tools.clientDenyList(check.input.settings)(check.rules.lower)
      ? deniedBy('TEXT_CLIENT_DENY_LISTED', check.rules.findings)
      : undefined,
};
