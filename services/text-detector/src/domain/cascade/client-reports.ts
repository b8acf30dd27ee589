import { REASON_WEIGHTS } from '../rules';
import type { Stage } from './types';

/**
 * The calling client's own reports (../client-feedback.ts). The rules:
 * - when the client reported this text or a near-duplicate of it, the label of the most similar one decides
 *   (score 1 for spam, 0 for ham), before the model;
 * - the answer lists the report's reason first, then the rule findings, strongest first.
 */
export const clientReports: Stage = {
  name: 'client reports',
  reads: 'client',
  decide(check) {
    const { reported } = check.view;
    if (reported === undefined) return undefined;
    const code = reported === 'spam' ? 'TEXT_REPORTED_SPAM' : 'TEXT_REPORTED_HAM';
    return {
      score: reported === 'spam' ? 1 : 0,
      engine: 'rules',
      reasons: [{ code, weight: REASON_WEIGHTS[code] }, ...check.byWeight],
    };
  },
};
