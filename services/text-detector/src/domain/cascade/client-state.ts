import { randomUUID } from 'node:crypto';
import type { FormContext, TextSettings } from '@spam-check/contracts';
import { cutsOf, withLearntCuts } from '../client-cuts';
import { EXPORTED_CHARACTERS, strongestFeatures, type Learnable } from '../client-feedback';
import { normaliseForModel } from '../model/canonical';
import type { ModelInput, SparseVector } from '../model/extractor';
import { fingerprintOf } from '../near-duplicate';
import { normaliseText } from '../normalise';
import { runRules, type RuleFinding } from '../rules';
import type { CascadeCheck, CascadeConfig, CascadeDeps, CheckTextInput, ClientView, Modelled } from './types';
import { round } from './verdict';

/**
 * What the stages read: the text (normalised, its rule findings and language) from the start, and the
 * client's learnt state once a stage needs it.
 */

const NO_VIEW: ClientView = { reported: undefined, weights: new Map(), campaign: 0 };

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

export function learnableOf(
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

/** The operator's cascade configuration with a client's settings over it. */
function withClientSettings(config: CascadeConfig, settings: TextSettings | undefined): CascadeConfig {
  if (!settings) return config;
  return Object.assign({}, config, {
    spamThreshold: settings.spam_threshold ?? config.spamThreshold,
    suspiciousThreshold: settings.suspicious_threshold ?? config.suspiciousThreshold,
    llmMode: settings.llm_mode ?? config.llmMode,
  });
}

/** A check of a text as every stage starts it: normalisation, rule findings, language, signals. */
export function startCheck(
  input: CheckTextInput,
  deps: Pick<CascadeDeps, 'detectLanguage' | 'config'>,
): CascadeCheck {
  const normalised = normaliseText(input);
  const rules = runRules(normalised);
  const language = deps.detectLanguage(rules.text);
  return {
    id: randomUUID(),
    input,
    config: withClientSettings(deps.config, input.settings),
    normalised,
    rules,
    byWeight: [...rules.findings].sort((a, b) => b.weight - a.weight),
    language,
    signals: {
      links: 0,
      link_density: 0,
      shorteners: 0,
      uppercase_ratio: 0,
      length: normalised.text.length,
      html_tags: normalised.htmlTags,
      ...rules.signals,
      ...(input.context?.form_type === undefined ? {} : { form_type: input.context.form_type }),
    },
    modelled: undefined,
    view: NO_VIEW,
    local: undefined,
  };
}

/**
 * The caller's learnt state, read while this check's record (for a report on its id) is written, the record
 * before the answer exists, so a report right after it finds it. `decided`: a stage that reads the text alone
 * decided, so no model judges it, nothing is read and the record says the check teaches nothing. Without a
 * client or a store, nothing is read or written. The client's learnt cuts move its thresholds.
 */
export async function readClientState(
  check: CascadeCheck,
  deps: Pick<CascadeDeps, 'model' | 'feedback'>,
  decided: boolean,
): Promise<void> {
  const { input, normalised, rules, language } = check;
  if (!decided) {
    const view = modelInput(normalised, rules.findings, input.context);
    check.modelled = { view, prediction: deps.model.predict(view, language), language };
    check.signals.rule_score = round(rules.score);
  }
  check.view = await lookup(deps.feedback, input, check.id, check.modelled);
  check.config = withLearntCuts(check.config, cutsOf(check.view.weights), deps.model, language);
}

async function lookup(
  feedback: CascadeDeps['feedback'],
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
