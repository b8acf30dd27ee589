import { randomUUID } from 'node:crypto';
import { domainToASCII } from 'node:url';
import { campaignPolicy } from '@spam-check/client-settings';
import type { ClientSettings, FormContext } from '@spam-check/contracts';
import { applyFormJudgement, judgeFormContext } from '@spam-check/form-signals';
import type { FairShare } from '@spam-check/service-kit';
import {
  checkEmail,
  type ClientMailSettings,
  type EmailCheckDeps,
  type EmailCheckInput,
  type EmailCheckResult,
} from './check-email';
import { createOperatorList } from './operator-lists';
import type { EmailFeedback } from './reports';
import { VERDICT_THRESHOLDS } from './scoring';

/**
 * One e-mail check for the client the gateway named (`X-Client-Id`), as every entry point runs it (HTTP, RPC,
 * each item of a batch), in this order:
 * 1. the client's settings: its allow and deny lists and thresholds (compiled once per settings document);
 * 2. its campaign policy: whether its checks are judged against the campaigns sharing clients reported;
 * 3. the checker (./check-email.ts) with the client's reports, while the record for feedback is written;
 * 4. the form judgement (`@spam-check/form-signals`), which never reaches the record kept for feedback.
 * Each check costs 1 in its client's fair share, and is counted by verdict and entry point.
 */

export type EntryPoint = 'http' | 'rpc';

export type ClientEmailInput = Omit<EmailCheckInput, 'client'> & {
  clientId: string | undefined;
  context?: FormContext | undefined;
};

export type CheckClientEmail = (input: ClientEmailInput, entryPoint: EntryPoint) => Promise<EmailCheckResult>;

/** What the orchestration needs, wired by `compose.ts`. */
export interface ClientCheckDeps {
  /** The client's settings document; undefined without a settings store (operator defaults for all). */
  settingsOf: ((clientId: string) => Promise<ClientSettings>) | undefined;
  /** The operator's campaign defaults (CAMPAIGN_SHARE_DEFAULT, CAMPAIGN_PROTECT_DEFAULT). */
  campaignDefaults: Parameters<typeof campaignPolicy>[1];
  checker: EmailCheckDeps;
  feedback: EmailFeedback;
  /** FORM_MIN_SECONDS. */
  formMinSeconds: number;
  /** Each client's share of the checks running at once (EMAIL_CLIENT_CHECKS_IN_FLIGHT). */
  share: FairShare;
  counted(verdict: EmailCheckResult['verdict'], entryPoint: EntryPoint): void;
}

const toAscii = (domain: string) => domainToASCII(domain);

function compileMailSettings(settings: ClientSettings): ClientMailSettings | undefined {
  const mail = settings.mail;
  if (!mail) return undefined;
  return {
    allow: createOperatorList(mail.allow ?? [], toAscii),
    deny: createOperatorList(mail.deny ?? [], toAscii),
    thresholds: {
      spam: mail.spam_threshold ?? VERDICT_THRESHOLDS.spam,
      suspicious: mail.suspicious_threshold ?? VERDICT_THRESHOLDS.suspicious,
    },
  };
}

/**
 * The check for a client. Its id is named first, so the record for feedback is written while the check runs:
 * it joins the lookup of the caller's reports in one Redis round trip (the client pipelines commands sent in
 * the same turn of the event loop) instead of a second one after it. A failed write fails the check (503): an
 * answer whose id could not be reported on is never given.
 */
export function createClientCheck(deps: ClientCheckDeps): CheckClientEmail {
  // The store keeps a value's identity while it is cached, so a settings document is compiled once.
  const compiled = new WeakMap<ClientSettings, ClientMailSettings | undefined>();
  const mailSettingsOf = (settings: ClientSettings) => {
    if (!compiled.has(settings)) compiled.set(settings, compileMailSettings(settings));
    return compiled.get(settings);
  };

  const checkOnce: CheckClientEmail = async (input, entryPoint) => {
    const own = deps.settingsOf && input.clientId ? await deps.settingsOf(input.clientId) : undefined;
    const client = own && mailSettingsOf(own);
    const protect = input.clientId ? campaignPolicy(own ?? {}, deps.campaignDefaults).protect : false;
    const id = randomUUID();
    const checked = { email: input.email, language: input.language, requestId: input.requestId, client, id };
    const [checkedResult] = await Promise.all([
      checkEmail(checked, deps.checker, {
        reportsOf: deps.feedback.reportsOf(input.clientId),
        campaignOf: protect ? deps.feedback.campaignOf : undefined,
      }),
      deps.feedback.remember(input.clientId, input.email, id),
    ]);
    const result = applyFormJudgement(checkedResult, judgeFormContext(input.context, deps.formMinSeconds), {
      language: input.language,
      suspiciousThreshold: (client?.thresholds ?? VERDICT_THRESHOLDS).suspicious,
    });
    deps.counted(result.verdict, entryPoint);
    return result;
  };

  return (input, entryPoint) => deps.share(input.clientId, 1, () => checkOnce(input, entryPoint));
}
