import type {
  FeedbackLabel,
  FormContext,
  Language,
  ReasonParams,
  TextResult,
  TextSettings,
} from '@spam-check/contracts';
import type { Learnable, LearntWeight } from '../client-feedback';
import type { DetectLanguage } from '../language';
import type { AskLlm } from '../llm';
import type { TextModel } from '../model/classifier';
import type { ModelInput, SparseVector } from '../model/extractor';
import type { Fingerprint } from '../near-duplicate';
import type { NormalisedText } from '../normalise';
import type { DenyList, RuleEvidence, RuleFinding } from '../rules';

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

/** The store of the callers' reports as the cascade sees it (../../data-access/text-feedback-store.ts). */
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
  /** The form the text was submitted with, judged after the cascade (../check-for-client.ts); never stored. */
  context?: FormContext | undefined;
  /** Whether the calling client is protected by the campaigns other clients reported (../campaigns.ts). */
  protect?: boolean | undefined;
}

export type TextCheck = Omit<TextResult, 'duration_ms'>;

export interface Reason {
  code: RuleFinding['code'];
  weight: number;
  params?: ReasonParams;
}

type Prediction = ReturnType<TextModel['predict']>;

/** A text the model judged: what a report on its check would learn from. */
export interface Modelled {
  view: ModelInput;
  prediction: Prediction;
  language: string | null;
}

/** The model's judgement of a text, with the caller's adjustment and the campaigns over it. */
export interface LocalJudgement {
  score: number;
  reasons: Reason[];
  /** The text is outside the model's own ground: its score stays below `spam`, and the LLM is asked. */
  unfamiliar: boolean;
  /** Raises a score to `suspicious` when sharing clients reported the text as a campaign. */
  campaignFloor: (score: number) => number;
}

/**
 * One check under way: what the stages read, and what an earlier stage leaves for a later one. `modelled`
 * and `view` are filled when the client's state is read (./client-state.ts), `local` by the local model.
 */
export interface CascadeCheck {
  id: string;
  input: CheckTextInput;
  /** The operator's configuration with the client's settings, then its learnt cuts, over it. */
  config: CascadeConfig;
  normalised: NormalisedText;
  rules: RuleEvidence;
  /** The rule findings, strongest first. */
  byWeight: Reason[];
  language: string | null;
  signals: TextResult['signals'];
  modelled: Modelled | undefined;
  view: ClientView;
  local: LocalJudgement | undefined;
}

/** How a stage that decides ends the cascade. */
export interface Decision {
  score: number;
  engine: TextResult['engine'];
  reasons: Reason[];
  /** The LLM was wanted but could not answer. */
  degraded?: boolean;
}

/** What stages use beyond the check: built once per checker. */
export interface StageTools {
  model: TextModel;
  askLlm: AskLlm | undefined;
  /** The operator's deny list. */
  denyList: DenyList;
  /** A client's deny terms, compiled once per settings document. */
  clientDenyList: (settings: TextSettings | undefined) => DenyList;
}

/**
 * One stage of the cascade: a decision, or undefined to hand the check on. `reads` says whether it needs the
 * client's learnt state (read once, before the first stage that does).
 */
export interface Stage {
  name: string;
  reads: 'text' | 'client';
  decide(check: CascadeCheck, tools: StageTools): Decision | Promise<Decision> | undefined;
}
