import { randomUUID } from 'node:crypto';
import {
  reasonMessage,
  type FormContext,
  type FeedbackLabel,
  type Language,
  type ReasonParams,
  type TextResult,
  type TextSettings,
} from '@spam-check/contracts';
import { cutsOf, withLearntCuts } from './client-cuts';
import {
  EXPORTED_CHARACTERS,
  adjustment,
  strongestFeatures,
  type Learnable,
  type LearntWeight,
} from './client-feedback';
import type { DetectLanguage } from './language';
import type { AskLlm, LlmOutcome } from './llm';
import type { TextModel } from './model/classifier';
import { normaliseForModel } from './model/canonical';
import type { ModelInput, SparseVector } from './model/extractor';
import { unfamiliarity } from './model/familiarity';
import { fingerprintOf, type Fingerprint } from './near-duplicate';
import { normaliseText } from './normalise';
import {
  createDenyList,
  fixtureVerdict,
  REASON_WEIGHTS,
  runRules,
  type DenyList,
  type RuleFinding,
} from './rules';

/**
 * The text verdict, one function behind the HTTP and the RPC entry point. A cascade, cheapest first:
 * 1. normalisation; the operator deny list, then the test fixtures, then the client's deny terms decide
 *    alone; then the caller's own reports on the same text or a near-duplicate of it (./client-feedback.ts)
 *    (DESIGN.md §6.1 precedence; a client's own thresholds and LLM mode, §6.3, replace the operator's for its
 *    checks);
 * 2. rule signals (links, shorteners, obfuscation, contact elsewhere, shouting, repetition), reported as
 *    reasons and handed to the model as features: how much each is worth was learnt with the words;
 * 3. the local model, whose calibrated probability is the local score; on a text outside the model's own
 *    ground (language, vocabulary, form: ./model/familiarity.ts) that score stays below `spam`; the caller's
 *    adjustment, learnt from its reports, moves the margin before calibration, on top of that limit (to `spam`
 *    only by the part of it that its reports back: ./client-feedback.ts);
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
  /** Per-client reports and adjustments; absent, every caller is judged alike. */
  feedback?: TextFeedback | undefined;
}

/** What a check reads of its client's reports (and of the campaign memory, for a protecting client). */
export interface ClientView {
  /** The label of the most similar near-duplicate the client reported. */
  reported: FeedbackLabel | undefined;
  /** The client's adjustment weights of the text's features (and its cut offsets). */
  weights: ReadonlyMap<number, LearntWeight>;
  /** How many sharing clients reported a campaign of this text (0: none, or the client does not protect). */
  campaign: number;
}

const NO_VIEW: ClientView = { reported: undefined, weights: new Map(), campaign: 0 };

/** The store of the callers' reports as the cascade sees it (../data-access/text-feedback-store.ts). */
export interface TextFeedback {
  lookup(
    client: string,
    fingerprint: Fingerprint,
    vector: SparseVector,
    protect: boolean,
  ): Promise<ClientView>;
  /**
   * Keeps what a report on this check would learn from (null: the check teaches nothing); `learnable` is
   * only called when something is kept.
   */
  remember(client: string, checkId: string, learnable: () => Learnable | null): Promise<void>;
}

export interface CheckTextInput {
  title: string;
  body: string;
  sub_title?: string | undefined;
  language: Language;
  requestId: string;
  /** The calling client (forwarded by the gateway); its reports apply and the check is kept for feedback. */
  clientId?: string | undefined;
  /** The calling client's own settings, if any. */
  settings?: TextSettings | undefined;
  /** The form the text was submitted with (DESIGN.md §7.3), judged after the cascade; never stored. */
  context?: FormContext | undefined;
  /** Whether the calling client is protected by the campaigns other clients reported (DESIGN.md §7.1). */
  protect?: boolean | undefined;
}

export type TextCheck = Omit<TextResult, 'duration_ms'>;
export type CheckText = (input: CheckTextInput) => Promise<TextCheck>;

/**
 * A check for the client the gateway named (`X-Client-Id`), with that client's settings and reports applied:
 * what every entry point (HTTP, RPC, each item of a batch) calls.
 */
export type CheckClientText = (input: Omit<CheckTextInput, 'settings' | 'protect'>) => Promise<TextCheck>;

/** Scores are rounded to this step; an unfamiliar text's local score stays one step below `spam`. */
const SCORE_STEP = 0.0001;
const round = (value: number) => Math.round(value * 10_000) / 10_000;

/**
 * What the model reads of a normalised text: title and subtitle as its title, the body as its body, the
 * rule findings, and the genre and author of the form it came with (when the check names them).
 */
export function modelInput(
  normalised: { title: string; subTitle: string; body: string },
  findings: readonly RuleFinding[],
  context?: FormContext,
): ModelInput {
  const form =
    context && (context.form_type ?? context.author_name ?? context.author_url) !== undefined
      ? { type: context.form_type, authorName: context.author_name, authorUrl: context.author_url }
      : undefined;
  return {
    title: [normalised.title, normalised.subTitle].filter(Boolean).join(' '),
    body: normalised.body,
    findings,
    form,
  };
}

interface Reason {
  code: RuleFinding['code'];
  weight: number;
  params?: ReasonParams;
}

/** The operator's cascade configuration with a client's settings over it. */
function withClientSettings(config: CascadeConfig, settings: TextSettings | undefined): CascadeConfig {
  if (!settings) return config;
  return Object.assign({}, config, {
    spamThreshold: settings.spam_threshold ?? config.spamThreshold,
    suspiciousThreshold: settings.suspicious_threshold ?? config.suspiciousThreshold,
    llmMode: settings.llm_mode ?? config.llmMode,
  });
}

type TextInput = Pick<CheckTextInput, 'title' | 'body' | 'sub_title'>;

/**
 * What every use of a text starts with: normalisation, rules, language, and whether the operator or a
 * fixture fixes its verdict.
 */
function prepare(input: TextInput, deps: Pick<CascadeDeps, 'detectLanguage'>, denyList: DenyList) {
  const normalised = normaliseText(input);
  const rules = runRules(normalised);
  const language = deps.detectLanguage(rules.text);
  const denied = denyList(rules.lower);
  const fixture = denied ? undefined : fixtureVerdict(rules.lower);
  return { normalised, rules, language, denied, fixture };
}

function learnableOf(
  view: ModelInput,
  prediction: { margin: number; vector: SparseVector },
  language: string | null,
): Learnable {
  return {
    fingerprint: fingerprintOf(view.title, view.body),
    features: strongestFeatures(prediction.vector),
    margin: prediction.margin,
    language,
    text: {
      title: normaliseForModel(view.title, EXPORTED_CHARACTERS),
      body: normaliseForModel(view.body, EXPORTED_CHARACTERS),
    },
  };
}

/** What a report on a text (without a check id) learns from; null when the text teaches nothing. */
export function createTextLearner(
  deps: Pick<CascadeDeps, 'model' | 'detectLanguage' | 'config'>,
): (input: TextInput) => Learnable | null {
  const denyList = createDenyList(deps.config.denyTerms);
  return (input) => {
    const { normalised, rules, language, denied, fixture } = prepare(input, deps, denyList);
    if (denied || fixture !== undefined) return null;
    const modelView = modelInput(normalised, rules.findings);
    return learnableOf(modelView, deps.model.predict(modelView, language), language);
  };
}

/** A client's deny terms, compiled once per settings document (a new document is a new object). */
function clientDenyLists(): (settings: TextSettings | undefined) => DenyList {
  const lists = new WeakMap<TextSettings, DenyList>();
  return (settings) => {
    if (!settings?.deny_terms) return () => false;
    let list = lists.get(settings);
    if (!list) lists.set(settings, (list = createDenyList(settings.deny_terms)));
    return list;
  };
}

type Prediction = ReturnType<TextModel['predict']>;

/** A text the model judged: what a report on its check would learn from. */
interface Modelled {
  view: ModelInput;
  prediction: Prediction;
  language: string | null;
}

/**
 * The caller's learnt state, read while this check's record (for a report on its id) is written, the record
 * before the answer exists, so a report right after it finds it. Nothing is read for a text no model judged
 * (a rule decided it); without a client or a store, nothing is read or written.
 */
async function readClientView(
  feedback: TextFeedback | undefined,
  input: CheckTextInput,
  id: string,
  modelled: Modelled | undefined,
): Promise<ClientView> {
  const client = feedback && input.clientId !== undefined ? input.clientId : undefined;
  if (client === undefined || !feedback) return NO_VIEW;
  let learnt: Learnable | undefined;
  const learnFrom = (text: Modelled) => (learnt ??= learnableOf(text.view, text.prediction, text.language));
  const remembered = feedback.remember(client, id, () => (modelled ? learnFrom(modelled) : null));
  if (!modelled) {
    await remembered;
    return NO_VIEW;
  }
  const { fingerprint } = learnFrom(modelled);
  const [view] = await Promise.all([
    feedback.lookup(client, fingerprint, modelled.prediction.vector, input.protect === true),
    remembered,
  ]);
  return view;
}

/** One check under way: what its answer is made of, whatever decides its score. */
interface Check {
  id: string;
  input: CheckTextInput;
  config: CascadeConfig;
  language: string | null;
  signals: TextResult['signals'];
}

const verdictOf = (config: CascadeConfig, score: number) =>
  score >= config.spamThreshold ? 'spam' : score >= config.suspiciousThreshold ? 'suspicious' : 'ham';

function finish(
  check: Check,
  score: number,
  engine: TextResult['engine'],
  reasons: Reason[],
  degraded = false,
): TextCheck {
  const verdict = verdictOf(check.config, score);
  return {
    id: check.id,
    spam: verdict === 'spam',
    verdict,
    score: round(score),
    reasons: reasons.map(({ code, weight, params }) => ({
      code,
      message: reasonMessage(code, check.input.language, params),
      weight: round(weight),
    })),
    request_id: check.input.requestId,
    language: check.language,
    engine,
    degraded,
    signals: check.signals,
  };
}

export function createTextChecker(deps: CascadeDeps): CheckText {
  const denyList = createDenyList(deps.config.denyTerms);
  const clientDenyList = clientDenyLists();

  return async (input) => {
    let config = withClientSettings(deps.config, input.settings);
    const { normalised, rules, language, denied, fixture } = prepare(input, deps, denyList);
    const { findings } = rules;
    const clientDenied = !denied && fixture === undefined && clientDenyList(input.settings)(rules.lower);
    // Everything but the LLM's answer is known before the client's state is read: the model's view, and so
    // what a report on this check would learn from (nothing when a rule decides, and no model view then).
    const view =
      denied || fixture !== undefined || clientDenied
        ? undefined
        : modelInput(normalised, findings, input.context);
    const modelled = view && { view, prediction: deps.model.predict(view, language), language };
    const id = randomUUID();
    const clientView = await readClientView(deps.feedback, input, id, modelled);
    config = withLearntCuts(config, cutsOf(clientView.weights), deps.model, language);
    const signals: TextResult['signals'] = {
      links: 0,
      link_density: 0,
      shorteners: 0,
      uppercase_ratio: 0,
      length: normalised.text.length,
      html_tags: normalised.htmlTags,
      ...rules.signals,
    };
    const check: Check = { id, input, config, language, signals };

    if (denied)
      return finish(check, 1, 'rules', [
        { code: 'TEXT_DENY_LISTED', weight: REASON_WEIGHTS.TEXT_DENY_LISTED },
        ...findings,
      ]);
    if (fixture !== undefined)
      return finish(check, fixture === 'spam' ? 1 : 0, 'rules', [
        { code: 'TEXT_TEST_FIXTURE', weight: REASON_WEIGHTS.TEXT_TEST_FIXTURE },
      ]);
    if (clientDenied || !modelled)
      return finish(check, 1, 'rules', [
        { code: 'TEXT_CLIENT_DENY_LISTED', weight: REASON_WEIGHTS.TEXT_CLIENT_DENY_LISTED },
        ...findings,
      ]);

    signals.rule_score = round(rules.score);
    const byWeight = [...findings].sort((a, b) => b.weight - a.weight);
    const { reported } = clientView;
    if (reported !== undefined) {
      const code = reported === 'spam' ? 'TEXT_REPORTED_SPAM' : 'TEXT_REPORTED_HAM';
      return finish(check, reported === 'spam' ? 1 : 0, 'rules', [
        { code, weight: REASON_WEIGHTS[code] },
        ...byWeight,
      ]);
    }
    const local = judgeByModel(deps.model, check, rules.text, modelled.prediction, clientView, byWeight);
    const wanted =
      config.llmMode === 'always' ||
      (config.llmMode === 'band' &&
        (local.unfamiliar || (local.score >= config.llmBand[0] && local.score < config.llmBand[1])));
    if (!wanted) return finish(check, local.score, 'model', local.reasons);
    return judgeByLlm(deps.askLlm, check, normalised, local);
  };
}

/** The model's judgement of a text, with the caller's adjustment and the campaigns over it. */
interface LocalJudgement {
  score: number;
  reasons: Reason[];
  /** The text is outside the model's own ground: its score stays below `spam`, and the LLM is asked. */
  unfamiliar: boolean;
  /** Raises a score to `suspicious` when sharing clients reported the text as a campaign. */
  campaignFloor: (score: number) => number;
}

function judgeByModel(
  model: TextModel,
  check: Check,
  text: string,
  prediction: Prediction,
  view: ClientView,
  byWeight: Reason[],
): LocalJudgement {
  const { config, signals, language } = check;
  const { probability, coverage, margin, vector } = prediction;
  signals.model_probability = round(probability);
  signals.model_coverage = round(coverage);
  const unfamiliar = unfamiliarity(text, language, coverage, model.header);
  // The model weighs the rule findings itself (they are features of it), so its probability is the score.
  let modelScore = probability;
  const unfamiliarReasons: Reason[] = [];
  if (unfamiliar !== undefined) {
    signals.model_unfamiliar = unfamiliar;
    // Never below 0: a client may set its spam threshold to 0 (everything is spam for it then).
    modelScore = Math.max(0, Math.min(modelScore, config.spamThreshold - SCORE_STEP));
    unfamiliarReasons.push({ code: 'TEXT_MODEL_UNFAMILIAR', weight: REASON_WEIGHTS.TEXT_MODEL_UNFAMILIAR });
  }
  // The client's adjustment moves the margin; its effect is added on top of the model's own (limited) score.
  // Only the part of it that the client's reports back may carry the text to `spam`; without it the score
  // stops one step below (./client-feedback.ts `adjustment`).
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
  // A campaign that sharing clients reported makes the text at least suspicious (DESIGN.md §7.1).
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
    reasons: [...clientReasons, ...byWeight, modelReason, ...unfamiliarReasons],
    unfamiliar: unfamiliar !== undefined,
    campaignFloor,
  };
}

/** The LLM's answer decides; when it cannot answer, the local judgement stands, `degraded`. */
async function judgeByLlm(
  askLlm: AskLlm | undefined,
  check: Check,
  normalised: { title: string; subTitle: string; body: string },
  local: LocalJudgement,
): Promise<TextCheck> {
  const { signals, language } = check;
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
    return finish(
      check,
      local.score,
      'model',
      [...local.reasons, { code: 'TEXT_LLM_UNAVAILABLE', weight: REASON_WEIGHTS.TEXT_LLM_UNAVAILABLE }],
      true,
    );
  }
  const { answer } = outcome;
  signals.llm = outcome.cached ? 'cached' : 'answered';
  if (answer.categories.length > 0) signals.llm_categories = answer.categories.join(',');
  const llmScore = local.campaignFloor(answer.spam ? answer.confidence : 1 - answer.confidence);
  const llmReason: Reason = {
    code: answer.spam ? 'TEXT_LLM_SPAM' : 'TEXT_LLM_HAM',
    weight: answer.confidence,
    params: { reason: answer.reason.slice(0, 300) },
  };
  return finish(check, llmScore, 'llm', [llmReason, ...local.reasons]);
}
