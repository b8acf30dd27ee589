import { loadServiceConfig } from '../src/config';
import {
  createTextChecker,
  type CascadeConfig,
  type CheckText,
  type TextFeedback,
} from '../src/domain/check-text';
import type { DetectLanguage } from '../src/domain/language';
import type { TextModel } from '../src/domain/model/classifier';

/** The cascade configuration the scripts measure: the default thresholds, LLM off, no deny terms. */
export function localCascade(): CascadeConfig {
  const config = loadServiceConfig({ LOG_LEVEL: 'silent' });
  return {
    spamThreshold: config.TEXT_SPAM_THRESHOLD,
    suspiciousThreshold: config.TEXT_SUSPICIOUS_THRESHOLD,
    llmMode: 'never',
    llmBand: config.TEXT_LLM_BAND,
    denyTerms: [],
  };
}

/**
 * The text check as the scripts measure it (training figures, feedback simulation and bench): the service's
 * cascade with `localCascade`; with a feedback store when given one.
 */
export function localChecker(
  model: TextModel,
  detectLanguage: DetectLanguage,
  feedback?: TextFeedback,
): CheckText {
  return createTextChecker({ model, detectLanguage, askLlm: undefined, feedback, config: localCascade() });
}
