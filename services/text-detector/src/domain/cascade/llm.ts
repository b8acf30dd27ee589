import { REASON_WEIGHTS } from '../rules';
import type { LlmOutcome } from '../llm';
import type { Decision, LocalJudgement, Stage, StageTools, CascadeCheck } from './types';

/**
 * The LLM (../llm.ts), reached only when the local model wants it. The rules:
 * - its answer decides (its confidence is the score), raised to `suspicious` for a reported campaign, and
 *   lists its reason before the local judgement's;
 * - when it cannot answer (not configured, timeout, error, rate limited, malformed), the local judgement
 *   stands, with the LLM's failure as a signal, and the answer is `degraded`.
 */
export const llm: Stage = {
  name: 'llm',
  reads: 'client',
  decide: (check, tools) => (check.local ? judgeByLlm(tools, check, check.local) : undefined),
};

async function judgeByLlm(
  { askLlm }: StageTools,
  check: CascadeCheck,
  local: LocalJudgement,
): Promise<Decision> {
  const { signals, language, normalised } = check;
  const outcome: LlmOutcome = askLlm
    ? await askLlm({
        title: normalised.title,
        subTitle: normalised.subTitle,
        body: normalised.body,
        language,
      })
    : { ok: false, failure: 'not_configured' };
  if (!outcome.ok) {
    signals.llm = outcome.failure;
    return {
      score: local.score,
      engine: 'model',
      reasons: [
        ...local.reasons,
        { code: 'TEXT_LLM_UNAVAILABLE', weight: REASON_WEIGHTS.TEXT_LLM_UNAVAILABLE },
      ],
      degraded: true,
    };
  }
  const { answer } = outcome;
  signals.llm = outcome.cached ? 'cached' : 'answered';
  if (answer.categories.length > 0) signals.llm_categories = answer.categories.join(',');
  return {
    score: local.campaignFloor(answer.spam ? answer.confidence : 1 - answer.confidence),
    engine: 'llm',
    reasons: [
      {
        code: answer.spam ? 'TEXT_LLM_SPAM' : 'TEXT_LLM_HAM',
        weight: answer.confidence,
        params: { reason: answer.reason.slice(0, 300) },
      },
      ...local.reasons,
    ],
  };
}
