import { loadServiceConfig } from '../src/config';
import { createTextChecker, type CheckText, type TextFeedback } from '../src/domain/check-text';
import type { DetectLanguage } from '../src/domain/language';
import type { TextModel } from '../src/domain/model/classifier';

/**
 * The text check as the scripts measure it (training figures, feedback simulation and bench): the service's
 * cascade with the default thresholds, LLM off, no deny terms; with a feedback store when given one.
 */
export function localChecker(
  model: TextModel,
  detectLanguage: DetectLanguage,
  feedback?: TextFeedback,
): CheckText {
  const config = loadServiceConfig({ LOG_LEVEL: 'silent' });
  return createTextChecker({
    model,
    detectLanguage,
    askLlm: undefined,
    feedback,
    config: {
      spamThreshold: config.TEXT_SPAM_THRESHOLD,
      suspiciousThreshold: config.TEXT_SUSPICIOUS_THRESHOLD,
      llmMode: 'never',
      llmBand: config.TEXT_LLM_BAND,
      denyTerms: [],
    },
  });
}
