import { randomUUID } from 'node:crypto';
import type { FormContext } from '@spam-check/contracts';
import { applyFormJudgement, judgeFormContext } from '@spam-check/form-signals';
import type { Counter, FairShare } from '@spam-check/service-kit';
import {
  checkEmail,
  type ClientMailSettings,
  type EmailCheckDeps,
  type EmailCheckInput,
  type EmailCheckResult,
} from './check-email';
import type { EmailFeedback } from './reports';
import { VERDICT_THRESHOLDS } from './scoring';
import type { MailServerLookup } from '../data-access/mail-server-lookup';

/** What a check needs, built once by `compose.ts`: the same for the HTTP and RPC entry points and batches. */
export interface EmailChecker {
  deps: EmailCheckDeps;
  /** null when DNS checks are off. */
  mailServers: MailServerLookup | null;
  checks: Counter<'verdict' | 'entry_point'>;
  /** The calling client's compiled settings; undefined without a client id or without settings. */
  clientSettings(clientId: string | undefined): Promise<ClientMailSettings | undefined>;
  /** Whether the calling client's checks are judged against the shared campaigns (DESIGN.md §7.1). */
  protects(clientId: string | undefined): Promise<boolean>;
  feedback: EmailFeedback;
  /** FORM_MIN_SECONDS (DESIGN.md §7.3). */
  formMinSeconds: number;
  /** Each client's share of the checks running at once (EMAIL_CLIENT_CHECKS_IN_FLIGHT). */
  share: FairShare;
}

/**
 * One check as every entry point runs it (HTTP, RPC, each item of a batch): with the caller's settings and
 * reports, counted, and remembered for later feedback. The check's id is named first, so the record for
 * feedback is written while the check runs: it joins the lookup of the caller's reports in one Redis round
 * trip (the client pipelines commands sent in the same turn of the event loop) instead of a second one after
 * it. A failed write fails the check (503): an answer whose id could not be reported on is never given.
 * Each check costs 1 in its client's share (`checker.share`).
 */
export function runEmailCheck(
  checker: EmailChecker,
  input: CheckRun,
  entryPoint: 'http' | 'rpc',
): Promise<EmailCheckResult> {
  return checker.share(input.clientId, 1, () => checkOnce(checker, input, entryPoint));
}

type CheckRun = Omit<EmailCheckInput, 'client'> & {
  clientId: string | undefined;
  context?: FormContext | undefined;
};

async function checkOnce(
  checker: EmailChecker,
  input: CheckRun,
  entryPoint: 'http' | 'rpc',
): Promise<EmailCheckResult> {
  const [client, protect] = await Promise.all([
    checker.clientSettings(input.clientId),
    checker.protects(input.clientId),
  ]);
  const id = randomUUID();
  // Named field by field, not `{ ...input, client, id }`: on Node 20 that gives every check's input a hidden
  // class of its own (service-kit README, "Per-request objects").
  const checked = { email: input.email, language: input.language, requestId: input.requestId, client, id };
  const [checkedResult] = await Promise.all([
    checkEmail(checked, checker.deps, {
      reportsOf: checker.feedback.reportsOf(input.clientId),
      campaignOf: protect ? checker.feedback.campaignOf : undefined,
    }),
    checker.feedback.remember(input.clientId, input.email, id),
  ]);
  // The form context is judged apart from the address and never reaches the record kept for feedback.
  const result = applyFormJudgement(checkedResult, judgeFormContext(input.context, checker.formMinSeconds), {
    language: input.language,
    suspiciousThreshold: (client?.thresholds ?? VERDICT_THRESHOLDS).suspicious,
  });
  checker.checks.inc({ verdict: result.verdict, entry_point: entryPoint });
  return result;
}
