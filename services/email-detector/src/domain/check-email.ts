import { randomUUID } from 'node:crypto';
import {
  reasonMessage,
  type CheckStatus,
  type EmailReasonCode,
  type Language,
  type MailResult,
  type ReasonParams,
  type Verdict,
} from '@spam-check/contracts';
import { disposableDomainOf } from './disposable';
import { fixtureVerdict } from './fixtures';
import { isFreeProvider } from './free-provider';
import { judgeMailServers, type LookupMailServers } from './mail-servers';
import { operatorDecision, type OperatorDecision, type OperatorList } from './operator-lists';
import { looksRandom } from './random-local-part';
import { isRoleAccount } from './role-account';
import type { CampaignOf, ReportsOf } from './reports';
import { FIXTURE_WEIGHTS, REASON_WEIGHTS, scoreOf, type VerdictThresholds } from './scoring';
import { parseAddress, type InvalidAddress, type ParsedAddress } from './syntax';
import { suggestDomain } from './typo';

export interface EmailCheckDeps {
  disposableDomains: ReadonlySet<string>;
  allowList: OperatorList;
  denyList: OperatorList;
  /** null when DNS checks are switched off (EMAIL_DNS_CHECK=off). */
  lookupMailServers: LookupMailServers | null;
}

/**
 * A client's own lists and thresholds (docs/design.md, Administration), compiled; absent parts are the
 * operator's.
 */
export interface ClientMailSettings {
  allow: OperatorList;
  deny: OperatorList;
  thresholds: VerdictThresholds;
}

/**
 * The caller's own reports (./reports.ts), absent when the caller is unknown; the shared campaigns
 * (./campaigns.ts), absent when the caller does not protect.
 */
export type EmailCheckOptions = { reportsOf?: ReportsOf | undefined; campaignOf?: CampaignOf | undefined };

export interface EmailCheckInput {
  email: string;
  language: Language;
  requestId: string;
  client?: ClientMailSettings | undefined;
  /** The result's id; a new one when absent (`./check-for-client.ts` names it first, to record it during the check). */
  id?: string | undefined;
}

export type EmailCheckResult = Omit<MailResult, 'duration_ms'>;

interface Check {
  status: CheckStatus;
  detail?: string;
}

const skipped = (detail: string): Check => ({ status: 'skipped', detail });
const flagged = (hit: boolean): Check => ({ status: hit ? 'fail' : 'pass' });

interface Reason {
  code: EmailReasonCode;
  weight: number;
  params?: ReasonParams;
}
type AddReason = (code: EmailReasonCode, params?: ReasonParams, weight?: number) => void;
type ResultFields = Omit<EmailCheckResult, 'id' | 'spam' | 'verdict' | 'score' | 'reasons' | 'request_id'>;

/** What decided before the local rules, in precedence order; each is asked only when none before it decided. */
interface Precedence {
  decision: OperatorDecision;
  fixture: Verdict | null;
  clientDecision: OperatorDecision;
  reported: Awaited<ReturnType<ReportsOf>>;
}

/** Scores the reasons (with the client's thresholds unless a fixture decided) and builds the result. */
function resultOf(
  input: EmailCheckInput,
  reasons: readonly Reason[],
  fixture: Verdict | null,
  fields: ResultFields,
): EmailCheckResult {
  // A fixture's verdict is fixed for every client (docs/design.md, Checks and verdicts): the client's
  // thresholds do not apply.
  const { score, verdict } = scoreOf(
    reasons.map((reason) => reason.weight),
    fixture === null ? input.client?.thresholds : undefined,
  );
  return {
    id: input.id ?? randomUUID(),
    spam: verdict === 'spam',
    verdict,
    score,
    reasons: reasons.map(({ code, weight, params }) => ({
      code,
      message: reasonMessage(code, input.language, params),
      weight,
    })),
    request_id: input.requestId,
    ...fields,
  };
}

function invalidAddressFields(email: string, failure: InvalidAddress['failure']): ResultFields {
  return {
    email: { input: email, normalized: null, domain: null, ascii_domain: null },
    valid: false,
    suggestion: null,
    checks: {
      syntax: { status: 'fail', detail: failure },
      disposable: skipped('invalid_syntax'),
      role_account: skipped('invalid_syntax'),
      free_provider: skipped('invalid_syntax'),
      dns: skipped('invalid_syntax'),
    },
  };
}

/** Operator lists, fixtures, the client's own lists, the caller's reports, then shared campaigns. */
async function decideByPrecedence(
  address: ParsedAddress,
  input: EmailCheckInput,
  deps: EmailCheckDeps,
  options: EmailCheckOptions,
  add: AddReason,
): Promise<Precedence> {
  const { asciiDomain, localBase } = address;
  const decision = operatorDecision({ allow: deps.allowList, deny: deps.denyList }, localBase, asciiDomain);
  if (decision === 'allow') add('EMAIL_ALLOW_LISTED');
  if (decision === 'deny') add('EMAIL_DENY_LISTED');
  const fixture = decision === null ? fixtureVerdict(localBase, asciiDomain) : null;
  if (fixture !== null) add('EMAIL_TEST_FIXTURE', undefined, FIXTURE_WEIGHTS[fixture]);
  const clientDecision =
    decision === null && fixture === null && input.client
      ? operatorDecision(input.client, localBase, asciiDomain)
      : null;
  if (clientDecision === 'allow') add('EMAIL_CLIENT_ALLOW_LISTED');
  if (clientDecision === 'deny') add('EMAIL_CLIENT_DENY_LISTED');
  const reported =
    decision === null && fixture === null && clientDecision === null && options.reportsOf
      ? await options.reportsOf(address)
      : undefined;
  if (reported) add(reported === 'spam' ? 'EMAIL_REPORTED_SPAM' : 'EMAIL_REPORTED_HAM');
  const campaign =
    decision === null && fixture === null && clientDecision === null && !reported && options.campaignOf
      ? await options.campaignOf(address)
      : 0;
  // At least suspicious for the caller (no negative weight can be present here: lists and reports came first).
  if (campaign > 0)
    add(
      'EMAIL_CAMPAIGN',
      { clients: campaign },
      Math.max(REASON_WEIGHTS.EMAIL_CAMPAIGN, input.client?.thresholds.suspicious ?? 0),
    );
  return { decision, fixture, clientDecision, reported };
}

/** The local rules: disposable domain, role account, free provider, typo, random local part. */
function applyLocalRules(address: ParsedAddress, deps: EmailCheckDeps, add: AddReason) {
  const { asciiDomain, localBase } = address;
  const suggestedDomain = suggestDomain(asciiDomain);
  const suggestion = suggestedDomain ? `${address.localPart}@${suggestedDomain}` : null;
  // Disposable lists also carry typo domains of popular providers (gmial.com): a typo is the user's slip, to
  // be answered with the suggestion, not a throw-away mailbox to be refused.
  const disposable = suggestion ? null : disposableDomainOf(asciiDomain, deps.disposableDomains);
  if (disposable) add('EMAIL_DISPOSABLE_DOMAIN', { domain: disposable });
  const role = isRoleAccount(localBase);
  if (role) add('EMAIL_ROLE_ACCOUNT', { local: localBase });
  const free = isFreeProvider(asciiDomain);
  if (free) add('EMAIL_FREE_PROVIDER', { domain: address.domain });
  if (suggestion) add('EMAIL_DOMAIN_TYPO', { suggestion });
  if (looksRandom(localBase)) add('EMAIL_RANDOM_LOCAL_PART');
  return { suggestion, disposable, role, free };
}

/** Why DNS is not asked when the verdict is fixed already (a list, a fixture, a report, a disposable domain). */
function fixedVerdictDetail(fixed: Precedence, disposable: string | null): string | null {
  if (fixed.decision !== null) return fixed.decision === 'allow' ? 'allow_listed' : 'deny_listed';
  if (fixed.fixture !== null) return 'test_fixture';
  if (fixed.clientDecision !== null)
    return fixed.clientDecision === 'allow' ? 'client_allow_listed' : 'client_deny_listed';
  if (fixed.reported) return 'reported';
  if (disposable) return 'disposable_domain';
  return null;
}

/** The DNS check, unless switched off or the verdict is fixed; `usable` is false for a domain without mail. */
async function checkDns(
  address: ParsedAddress,
  deps: EmailCheckDeps,
  fixedDetail: string | null,
  add: AddReason,
): Promise<{ dns: Check; usable: boolean }> {
  if (!deps.lookupMailServers) return { dns: skipped('disabled'), usable: true };
  if (fixedDetail !== null) return { dns: skipped(fixedDetail), usable: true };
  const servers = await deps.lookupMailServers(address.asciiDomain);
  const judged = judgeMailServers(servers);
  if (judged.reason) add(judged.reason, { domain: address.domain });
  return { dns: { status: judged.status, detail: servers.outcome }, usable: judged.usable };
}

/**
 * The e-mail verdict, behind both the HTTP and the RPC entry point. Order: syntax (an invalid address stops
 * here: `valid: false`, spam, with EMAIL_CONTROL_CHARACTERS when a control character was the fault),
 * operator allow/deny lists, fixtures (operator lists before fixtures, as before: an operator may list a
 * fixture address), the calling client's own allow/deny lists, then the caller's reports (./reports.ts)
 * (docs/design.md, Checks and verdicts: precedence), then the campaigns that sharing clients reported, for a
 * protecting caller (docs/design.md, Campaigns: at least suspicious), the local rules (disposable, role
 * account, free provider, typo, random local part), then DNS unless the verdict is already fixed (a list, a
 * fixture, a report, a disposable domain). Every rule that fires adds a reason; scoring.ts turns them into
 * the score, with the client's thresholds unless a fixture decided.
 */
export async function checkEmail(
  input: EmailCheckInput,
  deps: EmailCheckDeps,
  options: EmailCheckOptions = {},
): Promise<EmailCheckResult> {
  const reasons: Reason[] = [];
  const add: AddReason = (code, params, weight = REASON_WEIGHTS[code]) =>
    reasons.push({ code, weight, ...(params ? { params } : {}) });

  const address = parseAddress(input.email);
  if (!address.valid) {
    add(address.failure === 'control_character' ? 'EMAIL_CONTROL_CHARACTERS' : 'EMAIL_INVALID_SYNTAX');
    return resultOf(input, reasons, null, invalidAddressFields(input.email, address.failure));
  }

  const fixed = await decideByPrecedence(address, input, deps, options, add);
  const { suggestion, disposable, role, free } = applyLocalRules(address, deps, add);
  const { dns, usable } = await checkDns(address, deps, fixedVerdictDetail(fixed, disposable), add);

  return resultOf(input, reasons, fixed.fixture, {
    email: {
      input: input.email,
      normalized: address.normalized,
      domain: address.domain,
      ascii_domain: address.asciiDomain,
    },
    valid: usable,
    suggestion,
    checks: {
      syntax: { status: 'pass' },
      disposable: suggestion ? skipped('typo_domain') : flagged(disposable !== null),
      role_account: flagged(role),
      free_provider: flagged(free),
      dns,
    },
  });
}
