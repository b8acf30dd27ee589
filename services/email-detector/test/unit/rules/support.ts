/**
 * For the rule tests (one file per rule group, as in src/domain/): each rule at its boundary, just below (does
 * not fire), at (the first input that fires) and above its threshold. Rules without a number get their nearest
 * non-matching and matching inputs. The syntax rules' length limits (local part 64, label 63, address 254) are
 * at their boundaries in ../syntax.test.ts.
 */
import { disposableEmailBlocklist } from 'disposable-email-domains-js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { domainToASCII } from 'node:url';
import type { EmailCheckDeps } from '../../../src/domain/check-email';
import { createDisposableDomains } from '../../../src/domain/disposable';
import { createOperatorList } from '../../../src/domain/operator-lists';

export { FREE, NO_SUGGESTION, TYPOS, WIDELY_USED } from './labelled-domains';

export const readme = readFileSync(join(__dirname, '..', '..', '..', 'README.md'), 'utf8');

export const disposable = createDisposableDomains(disposableEmailBlocklist());

const noLists = createOperatorList([], domainToASCII);

export const deps: EmailCheckDeps = {
  disposableDomains: disposable,
  allowList: noLists,
  denyList: noLists,
  lookupMailServers: null,
};
