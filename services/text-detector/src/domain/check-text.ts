import type { TextSettings } from '@spam-check/contracts';
import {
  answerOf,
  learnableOf,
  modelInput,
  readClientState,
  startCheck,
  STAGES,
  type CascadeDeps,
  type CheckTextInput,
  type StageTools,
  type TextCheck,
} from './cascade';
import type { Learnable } from './client-feedback';
import { createDenyList, fixtureVerdict, runRules, type DenyList } from './rules';
import { normaliseText } from './normalise';

/**
 * The text verdict: the cascade of ./cascade/index.ts run on one text, each stage in its own file. A stage
 * decides or hands the check on; the first that decides ends it. Per-client orchestration (settings,
 * campaign policy, fair share, form judgement) is ./check-for-client.ts.
 */

export { modelInput };
export type { CascadeConfig, CascadeDeps, CheckTextInput, TextCheck, TextFeedback } from './cascade';

export type CheckText = (input: CheckTextInput) => Promise<TextCheck>;

export function createTextChecker(deps: CascadeDeps): CheckText {
  const tools: StageTools = {
    model: deps.model,
    askLlm: deps.askLlm,
    denyList: createDenyList(deps.config.denyTerms),
    clientDenyList: clientDenyLists(),
  };
  return async (input) => {
    const check = startCheck(input, deps);
    let clientRead = false;
    for (const stage of STAGES) {
      if (stage.reads === 'client' && !clientRead) {
        clientRead = true;
        await readClientState(check, deps, false);
      }
      const decision = stage.decide(check, tools);
      if (decision === undefined) continue;
      if (!clientRead) await readClientState(check, deps, true);
      return answerOf(check, await decision);
    }
    throw new Error('the text cascade ended without a decision');
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

type TextInput = Pick<CheckTextInput, 'title' | 'body' | 'sub_title'>;

/**
 * What a report on a text (without a check id) learns from; null when the text teaches nothing (the
 * operator's deny list or a fixture decides it).
 */
export function createTextLearner(
  deps: Pick<CascadeDeps, 'model' | 'detectLanguage' | 'config'>,
): (input: TextInput) => Learnable | null {
  const denyList = createDenyList(deps.config.denyTerms);
  return (input) => {
    const normalised = normaliseText(input);
    const rules = runRules(normalised);
    const language = deps.detectLanguage(rules.text);
    if (denyList(rules.lower) || fixtureVerdict(rules.lower) !== undefined) return null;
    const view = modelInput(normalised, rules.findings);
    return learnableOf(view, deps.model.predict(view, language), language);
  };
}
