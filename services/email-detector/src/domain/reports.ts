import type { FeedbackLabel } from '@spam-check/contracts';
import { fixtureVerdict } from './fixtures';
import { parseAddress, type ParsedAddress } from './syntax';

/**
 * What a client's reports about addresses decide. The rules:
 * - a report is about a mailbox: the lower-case local part without its `+tag` at the ASCII domain, so
 *   `Jo+News@Exämple.de` and `jo@xn--exmple-cua.de` are the same address;
 * - an address that is not syntactically valid, or a test fixture, teaches nothing: the feedback is accepted
 *   and nothing is stored (its verdict is fixed by the rules);
 * - a report decides the verdict of the same address, after the operator lists and the fixtures, before the
 *   other rules (check-email.ts).
 */
export function reportKey(address: ParsedAddress): string {
  return `${address.localBase}@${address.asciiDomain}`;
}

/** The key a report on this input is stored under, or null when the input teaches nothing. */
export function learnableKey(email: string): string | null {
  const address = parseAddress(email);
  if (!address.valid || fixtureVerdict(address.localBase, address.asciiDomain) !== null) return null;
  return reportKey(address);
}

export type ReportsOf = (address: ParsedAddress) => Promise<FeedbackLabel | undefined>;

/** What an erasure removed, by store (docs/design.md, Privacy and erasure). */
export interface ErasedCounts {
  email_check_records: number;
  email_reports: number;
  /** The client's spam reports in the campaign memory, or every client's of the erased address. */
  email_campaign_reports: number;
}

/** How many sharing clients reported the address or its domain as spam (./campaigns.ts; 0: none). */
export type CampaignOf = (address: ParsedAddress) => Promise<number>;

/**
 * The port of the e-mail detector's side of feedback (docs/design.md, Learning from reports), implemented by
 * `data-access/email-feedback.ts`. A check keeps, per client and for the retention time, only the key a
 * report would be stored under (the keyed hash of the address as `local@ascii-domain`, see `reportKey`
 * above), or an empty marker when the check teaches nothing (invalid address, fixture). A report is that key
 * with its label, in a capped map per client that expires after the report retention.
 */
export interface EmailFeedback {
  reportsOf(client: string | undefined): ReportsOf | undefined;
  campaignOf: CampaignOf;
  remember(client: string | undefined, email: string, checkId: string): Promise<void>;
  /** false when the client has no such check (unknown, expired or another client's). */
  reportCheck(client: string, checkId: string, label: FeedbackLabel): Promise<boolean>;
  reportAddress(client: string, email: string, label: FeedbackLabel): Promise<void>;
  /** Deletes what every client's checks and reports keep about the mailbox of `email`. */
  eraseAddress(email: string): Promise<ErasedCounts>;
  eraseClient(client: string): Promise<ErasedCounts>;
}
