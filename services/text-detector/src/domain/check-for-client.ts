import { campaignPolicy } from '@spam-check/client-settings';
import type { ClientSettings } from '@spam-check/contracts';
import { applyFormJudgement, judgeFormContext } from '@spam-check/form-signals';
import type { FairShare } from '@spam-check/service-kit';
import type { CheckText, CheckTextInput, TextCheck } from './check-text';
import { applySiteRules } from './rules';

/**
 * One text check for the client the gateway named (`X-Client-Id`), as every entry point runs it (HTTP, RPC,
 * each item of a batch), in this order:
 * 1. the client's settings: its thresholds, LLM mode and deny terms over the operator's;
 * 2. its campaign policy: whether its checks are judged against the campaigns sharing clients reported;
 * 3. the cascade (./check-text.ts), with the client's reports;
 * 4. the client's site rules (./rules/site-rules.ts) over the cascade's verdict;
 * 5. the form judgement (`@spam-check/form-signals`), which never reaches the record kept for feedback.
 * A check costs the characters it reads in its client's fair share.
 */

export type CheckClientText = (input: Omit<CheckTextInput, 'settings' | 'protect'>) => Promise<TextCheck>;

/** What the orchestration needs, wired by `compose.ts`. */
export interface ClientCheckDeps {
  /** The client's settings document; undefined without a settings store (operator defaults for all). */
  settingsOf: ((clientId: string) => Promise<ClientSettings>) | undefined;
  /** The operator's campaign defaults (CAMPAIGN_SHARE_DEFAULT, CAMPAIGN_PROTECT_DEFAULT). */
  campaignDefaults: Parameters<typeof campaignPolicy>[1];
  checkText: CheckText;
  /** FORM_MIN_SECONDS. */
  formMinSeconds: number;
  /** The operator's TEXT_SUSPICIOUS_THRESHOLD: the form judgement's floor unless the client sets its own. */
  suspiciousThreshold: number;
  /** The operator's TEXT_SPAM_THRESHOLD: the site rules' spam floor unless the client sets its own. */
  spamThreshold: number;
  /** Each client's share of the characters being checked at once (TEXT_CLIENT_CHARS_IN_FLIGHT). */
  share: FairShare;
}

export function createClientCheck(deps: ClientCheckDeps): CheckClientText {
  const checkOnce: CheckClientText = async (input) => {
    const own = deps.settingsOf && input.clientId ? await deps.settingsOf(input.clientId) : {};
    const { protect } = campaignPolicy(own, deps.campaignDefaults);
    const result = await deps.checkText(Object.assign({}, input, { settings: own.text, protect }));
    const suspiciousThreshold = own.text?.suspicious_threshold ?? deps.suspiciousThreshold;
    const ruled = applySiteRules(result, own.text_rules, {
      language: input.language,
      spamThreshold: own.text?.spam_threshold ?? deps.spamThreshold,
      suspiciousThreshold,
    });
    return applyFormJudgement(ruled, judgeFormContext(input.context, deps.formMinSeconds), {
      language: input.language,
      suspiciousThreshold,
    });
  };
  return (input) =>
    deps.share(input.clientId, input.title.length + input.body.length + (input.sub_title?.length ?? 0), () =>
      checkOnce(input),
    );
}
