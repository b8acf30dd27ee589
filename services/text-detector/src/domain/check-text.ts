import { randomUUID } from 'node:crypto';
import { reasonMessage, type Language, type ReasonParams, type TextResult } from '@spam-check/contracts';
import { detectLanguage } from './language';
import type { AskLlm, LlmOutcome } from './llm';
import type { TextModel } from './model/classifier';
import { normaliseText } from './normalise';
import { RULES, RULE_TEXT_LIMIT, denyListed, fixtureVerdict, type RuleFinding } from './rules';

/**
 * The text verdict, one function behind the HTTP and the RPC entry point. A cascade, cheapest first:
 * 1. normalisation; the operator deny list, then the test fixtures, decide alone;
 * 2. rule signals; when they are decisive on their own (combined weight >= RULES_DECISIVE) they decide;
 * 3. the local model, combined with the rule evidence into one score;
 * 4. the LLM, only when the local score falls in the configured band (or always / never); its answer
 *    decides. When it was wanted but could not answer, the local score stands and `degraded` is true.
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
}

export type TextCheck = Omit<TextResult, 'duration_ms'>;
export type CheckText = (input: CheckTextInput) => Promise<TextCheck>;

const RULES_DECISIVE = 0.9;
const round = (value: number) => Math.round(value * 10_000) / 10_000;

interface Reason {
  code: RuleFinding['code'];
  weight: number;
  params?: ReasonParams;
}

export function createTextChecker(deps: CascadeDeps): CheckText {
  const { config } = deps;
  const denyTerms = config.denyTerms.map((term) => term.normalize('NFKC').toLowerCase());

  return async (input) => {
    const normalised = normaliseText(input);
    const text = normalised.text.slice(0, RULE_TEXT_LIMIT);
    const lower = text.toLowerCase();
    const ruleInput = {
      text,
      lower,
      invisibleCharacters: normalised.invisibleCharacters,
      lookAlikeCharacters: normalised.lookAlikeCharacters,
    };
    const findings: RuleFinding[] = [];
    const signals: TextResult['signals'] = {
      links: 0,
      link_density: 0,
      shorteners: 0,
      uppercase_ratio: 0,
      length: normalised.text.length,
      html_tags: normalised.htmlTags,
    };
    for (const rule of RULES) {
      const outcome = rule(ruleInput);
      findings.push(...outcome.findings);
      Object.assign(signals, outcome.signals);
    }
    const language = detectLanguage(text);

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

    const ruleScore = 1 - findings.reduce((rest, finding) => rest * (1 - finding.weight), 1);
    signals.rule_score = round(ruleScore);
    const byWeight = [...findings].sort((a, b) => b.weight - a.weight);
    if (ruleScore >= RULES_DECISIVE) return finish(ruleScore, 'rules', byWeight);

    const probability = deps.model.predict({
      title: [normalised.title, normalised.subTitle].filter(Boolean).join(' '),
      body: normalised.body,
    });
    signals.model_probability = round(probability);
    const localScore = 1 - (1 - probability) * (1 - ruleScore);
    const modelReason: Reason =
      probability >= 0.5
        ? { code: 'TEXT_MODEL_SPAM', weight: probability, params: { probability: probability.toFixed(2) } }
        : {
            code: 'TEXT_MODEL_HAM',
            weight: 1 - probability,
            params: { probability: probability.toFixed(2) },
          };
    const localReasons = [...byWeight, modelReason];

    const wanted =
      config.llmMode === 'always' ||
      (config.llmMode === 'band' && localScore >= config.llmBand[0] && localScore < config.llmBand[1]);
    if (!wanted) return finish(localScore, 'model', localReasons);

    const outcome: LlmOutcome = deps.askLlm
      ? await deps.askLlm({ title: normalised.title, subTitle: normalised.subTitle, body: normalised.body })
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
