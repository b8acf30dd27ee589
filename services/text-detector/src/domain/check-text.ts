import { randomUUID } from 'node:crypto';
import {
  reasonMessage,
  type Language,
  type ReasonParams,
  type TextResult,
  type TextSettings,
} from '@spam-check/contracts';
import type { DetectLanguage } from './language';
import type { AskLlm, LlmOutcome } from './llm';
import type { TextModel } from './model/classifier';
import type { ModelInput } from './model/extractor';
import { unfamiliarity } from './model/familiarity';
import { normaliseText } from './normalise';
import { denyListed, fixtureVerdict, runRules, type RuleFinding } from './rules';

/**
 * The text verdict, one function behind the HTTP and the RPC entry point. A cascade, cheapest first:
 * 1. normalisation; the operator deny list, then the test fixtures, then the client's deny terms decide
 *    alone (a client's own thresholds and LLM mode, DESIGN.md §6.3, replace the operator's for its checks);
 * 2. rule signals (links, shorteners, obfuscation, contact elsewhere, shouting, repetition), reported as
 *    reasons and handed to the model as features: how much each is worth was learnt with the words;
 * 3. the local model, whose calibrated probability is the local score; on a text outside the model's own
 *    ground (language, vocabulary, form: ./model/familiarity.ts) that score stays below `spam`;
 * 4. the LLM, when the local score falls in the configured band or the text is unfamiliar (or always /
 *    never); its answer decides. When it was wanted but could not answer, the local score stands and
 *    `degraded` is true.
 */

export type LlmMode = 'band' | 'always' | 'never';

export interface CascadeConfig {
  spamThreshold: number;
  suspiciousThreshold: number;
  llmMode: LlmMode;
  /** [low, high): a local score in this range asks the LLM in `band` mode. */
  llmBand: readonly [number, number];
  denyTerms: readonly string[];
}

export interface CascadeDeps {
  model: TextModel;
  detectLanguage: DetectLanguage;
  /** Absent when no LLM is configured. */
  askLlm: AskLlm | undefined;
  config: CascadeConfig;
}

export interface CheckTextInput {
  title: string;
  body: string;
  sub_title?: string | undefined;
  language: Language;
  requestId: string;
  /** The calling client's own settings, if any. */
  settings?: TextSettings | undefined;
}

export type TextCheck = Omit<TextResult, 'duration_ms'>;
export type CheckText = (input: CheckTextInput) => Promise<TextCheck>;

/** Scores are rounded to this step; an unfamiliar text's local score stays one step below `spam`. */
const SCORE_STEP = 0.0001;
const round = (value: number) => Math.round(value * 10_000) / 10_000;

/**
 * What the model reads of a normalised text: title and subtitle as its title, the body as its body, and the
 * rule findings.
 */
export function modelInput(
  normalised: { title: string; subTitle: string; body: string },
  findings: readonly RuleFinding[],
): ModelInput {
  return {
    title: [normalised.title, normalised.subTitle].filter(Boolean).join(' '),
    body: normalised.body,
    findings,
  };
}

interface Reason {
  code: RuleFinding['code'];
  weight: number;
  params?: ReasonParams;
}

const normaliseTerms = (terms: readonly string[]) =>
  terms.map((term) => term.normalize('NFKC').toLowerCase());

/** The operator's cascade configuration with a client's settings over it. */
function withClientSettings(config: CascadeConfig, settings: TextSettings | undefined): CascadeConfig {
  if (!settings) return config;
  return {
    ...config,
    spamThreshold: settings.spam_threshold ?? config.spamThreshold,
    suspiciousThreshold: settings.suspicious_threshold ?? config.suspiciousThreshold,
    llmMode: settings.llm_mode ?? config.llmMode,
  };
}

export function createTextChecker(deps: CascadeDeps): CheckText {
  const denyTerms = normaliseTerms(deps.config.denyTerms);
  const clientTerms = new WeakMap<TextSettings, string[]>();
  const clientDenyTerms = (settings: TextSettings | undefined): string[] => {
    if (!settings?.deny_terms) return [];
    let terms = clientTerms.get(settings);
    if (!terms) clientTerms.set(settings, (terms = normaliseTerms(settings.deny_terms)));
    return terms;
  };

  return async (input) => {
    const config = withClientSettings(deps.config, input.settings);
    const normalised = normaliseText(input);
    const { text, lower, findings, signals: ruleSignals, score: ruleScore } = runRules(normalised);
    const signals: TextResult['signals'] = {
      links: 0,
      link_density: 0,
      shorteners: 0,
      uppercase_ratio: 0,
      length: normalised.text.length,
      html_tags: normalised.htmlTags,
      ...ruleSignals,
    };
    const language = deps.detectLanguage(text);

    const finish = (
      score: number,
      engine: TextResult['engine'],
      reasons: Reason[],
      degraded = false,
    ): TextCheck => {
      const verdict =
        score >= config.spamThreshold ? 'spam' : score >= config.suspiciousThreshold ? 'suspicious' : 'ham';
      return {
        id: randomUUID(),
        spam: verdict === 'spam',
        verdict,
        score: round(score),
        reasons: reasons.map(({ code, weight, params }) => ({
          code,
          message: reasonMessage(code, input.language, params),
          weight: round(weight),
        })),
        request_id: input.requestId,
        language,
        engine,
        degraded,
        signals,
      };
    };

    const denied = denyListed(lower, denyTerms);
    if (denied !== undefined)
      return finish(1, 'rules', [{ code: 'TEXT_DENY_LISTED', weight: 1 }, ...findings]);
    const fixture = fixtureVerdict(lower);
    if (fixture !== undefined) {
      return finish(fixture === 'spam' ? 1 : 0, 'rules', [{ code: 'TEXT_TEST_FIXTURE', weight: 1 }]);
    }
    if (denyListed(lower, clientDenyTerms(input.settings)) !== undefined)
      return finish(1, 'rules', [{ code: 'TEXT_CLIENT_DENY_LISTED', weight: 1 }, ...findings]);

    signals.rule_score = round(ruleScore);
    const byWeight = [...findings].sort((a, b) => b.weight - a.weight);

    const { probability, coverage } = deps.model.predict(modelInput(normalised, findings), language);
    signals.model_probability = round(probability);
    signals.model_coverage = round(coverage);
    const unfamiliar = unfamiliarity(text, language, coverage, deps.model.header);
    // The model weighs the rule findings itself (they are features of it), so its probability is the score.
    let localScore = probability;
    const unfamiliarReasons: Reason[] = [];
    if (unfamiliar !== undefined) {
      signals.model_unfamiliar = unfamiliar;
      // Never below 0: a client may set its spam threshold to 0 (everything is spam for it then).
      localScore = Math.max(0, Math.min(localScore, config.spamThreshold - SCORE_STEP));
      unfamiliarReasons.push({ code: 'TEXT_MODEL_UNFAMILIAR', weight: 0 });
    }
    const modelReason: Reason =
      probability >= 0.5
        ? { code: 'TEXT_MODEL_SPAM', weight: probability, params: { probability: probability.toFixed(2) } }
        : {
            code: 'TEXT_MODEL_HAM',
            weight: 1 - probability,
            params: { probability: probability.toFixed(2) },
          };
    const localReasons = [...byWeight, modelReason, ...unfamiliarReasons];

    const wanted =
      config.llmMode === 'always' ||
      (config.llmMode === 'band' &&
        (unfamiliar !== undefined || (localScore >= config.llmBand[0] && localScore < config.llmBand[1])));
    if (!wanted) return finish(localScore, 'model', localReasons);

    const outcome: LlmOutcome = deps.askLlm
      ? await deps.askLlm({
          title: normalised.title,
          subTitle: normalised.subTitle,
          body: normalised.body,
          language,
        })
      : { ok: false, failure: 'not_configured' };
    if (!outcome.ok) {
      signals.llm = outcome.failure;
      return finish(
        localScore,
        'model',
        [...localReasons, { code: 'TEXT_LLM_UNAVAILABLE', weight: 0 }],
        true,
      );
    }
    const { answer } = outcome;
    signals.llm = outcome.cached ? 'cached' : 'answered';
    if (answer.categories.length > 0) signals.llm_categories = answer.categories.join(',');
    const llmScore = answer.spam ? answer.confidence : 1 - answer.confidence;
    const llmReason: Reason = {
      code: answer.spam ? 'TEXT_LLM_SPAM' : 'TEXT_LLM_HAM',
      weight: answer.confidence,
      params: { reason: answer.reason.slice(0, 300) },
    };
    return finish(llmScore, 'llm', [llmReason, ...localReasons]);
  };
}
