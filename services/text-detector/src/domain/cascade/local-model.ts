import { adjustment } from '../client-feedback';
import { unfamiliarity } from '../model/familiarity';
import { REASON_WEIGHTS } from '../rules';
import { round, SCORE_STEP, verdictOf } from './verdict';
import type { CascadeCheck, LocalJudgement, Modelled, Reason, Stage, StageTools } from './types';

/**
 * The local model (../model/classifier.ts), whose calibrated probability is the local score. The rules:
 * - the model weighs the rule findings itself (they are features of it), so its probability is the score;
 * - on a text outside the model's own ground (language, vocabulary, form: ../model/familiarity.ts) the score
 *   stays one step below `spam` (never below 0), and the LLM is asked in `band` mode;
 * - the client's adjustment, learnt from its reports (../client-feedback.ts), moves the margin before
 *   calibration, on top of that limit; only the part of it that the client's reports back may carry the text
 *   to `spam`, else the score stops one step below;
 * - a campaign that sharing clients reported makes the text at least suspicious (../campaigns.ts);
 * - the model decides unless the LLM is wanted: always, or in `band` mode for an unfamiliar text or a score
 *   within the configured band; then the LLM stage decides with this judgement at hand.
 */
export const localModel: Stage = {
  name: 'local model',
  reads: 'client',
  decide(check, tools) {
    if (!check.modelled) return undefined;
    const local = judgeByModel(tools, check, check.modelled);
    check.local = local;
    const { config } = check;
    const wanted =
      config.llmMode === 'always' ||
      (config.llmMode === 'band' &&
        (local.unfamiliar || (local.score >= config.llmBand[0] && local.score < config.llmBand[1])));
    return wanted ? undefined : { score: local.score, engine: 'model', reasons: local.reasons };
  },
};

function judgeByModel({ model }: StageTools, check: CascadeCheck, { prediction }: Modelled): LocalJudgement {
  const { config, signals, language, view } = check;
  const { probability, coverage, margin, vector } = prediction;
  signals.model_probability = round(probability);
  signals.model_coverage = round(coverage);
  const unfamiliar = unfamiliarity(check.rules.text, language, coverage, model.header);
  let modelScore = probability;
  const unfamiliarReasons: Reason[] = [];
  if (unfamiliar !== undefined) {
    signals.model_unfamiliar = unfamiliar;
    // Never below 0: a client may set its spam threshold to 0 (everything is spam for it then).
    modelScore = Math.max(0, Math.min(modelScore, config.spamThreshold - SCORE_STEP));
    unfamiliarReasons.push({ code: 'TEXT_MODEL_UNFAMILIAR', weight: REASON_WEIGHTS.TEXT_MODEL_UNFAMILIAR });
  }
  const correction = adjustment(view.weights, vector);
  const lifted = (lift: number) =>
    Math.min(
      1,
      Math.max(0, modelScore + (lift === 0 ? 0 : model.calibrate(margin + lift, language) - probability)),
    );
  const spamBacked = lifted(correction.spamLift) >= config.spamThreshold;
  const corrected = spamBacked
    ? lifted(correction.lift)
    : Math.min(lifted(correction.lift), Math.max(0, config.spamThreshold - SCORE_STEP));
  const shift = corrected - modelScore;
  const campaignFloor = (score: number) =>
    view.campaign > 0 ? Math.max(score, config.suspiciousThreshold) : score;
  const score = campaignFloor(corrected);
  const clientReasons: Reason[] = [];
  if (view.campaign > 0)
    clientReasons.push({
      code: 'TEXT_CAMPAIGN',
      weight: REASON_WEIGHTS.TEXT_CAMPAIGN,
      params: { clients: view.campaign },
    });
  if (shift !== 0 && verdictOf(config, score) !== verdictOf(config, modelScore))
    clientReasons.push({ code: 'TEXT_CLIENT_MODEL', weight: shift, params: { before: round(modelScore) } });
  const modelReason: Reason =
    probability >= 0.5
      ? { code: 'TEXT_MODEL_SPAM', weight: probability, params: { probability: probability.toFixed(2) } }
      : {
          code: 'TEXT_MODEL_HAM',
          weight: 1 - probability,
          params: { probability: probability.toFixed(2) },
        };
  return {
    score,
    reasons: [...clientReasons, ...check.byWeight, modelReason, ...unfamiliarReasons],
    unfamiliar: unfamiliar !== undefined,
    campaignFloor,
  };
}
