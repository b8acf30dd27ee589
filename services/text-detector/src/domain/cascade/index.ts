import { clientDenyList } from './client-deny-list';
import { clientReports } from './client-reports';
import { llm } from './llm';
import { localModel } from './local-model';
import { operatorDenyList } from './operator-deny-list';
import { testFixtures } from './test-fixtures';
import type { Stage } from './types';

export { learnableOf, modelInput, readClientState, startCheck } from './client-state';
export { answerOf } from './verdict';
export type * from './types';

/**
 * The text cascade, cheapest first: the first stage that decides ends it. The stages that read the text alone
 * come first; the client's learnt state is read before the first stage that reads it (./client-state.ts).
 */
export const STAGES: readonly Stage[] = [
  operatorDenyList,
  testFixtures,
  clientDenyList,
  clientReports,
  localModel,
  llm,
];
