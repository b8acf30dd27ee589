import type { FeedbackLabel } from '@spam-check/contracts';
import { keyedHash, type CampaignMemory, type CheckMemory, type ClientMap } from '@spam-check/client-state';
import { AppError } from '@spam-check/service-kit';
import { campaignDomain, campaignReporters, campaignSignatures } from './campaigns';
import { learnableKey, reportKey, type EmailFeedback } from './reports';

/**
 * What the e-mail detector keeps, reads and learns of its clients' reports (./reports.ts), over the maps that
 * ../data-access/email-feedback.ts keeps. The rules:
 * - a check keeps, per client, a record of what a report on it would be about: the keyed hash of the mailbox
 *   and, when its domain can be a campaign's (./campaigns.ts), the keyed hash of the domain; '' when the check
 *   teaches nothing (an invalid address, a fixture); nothing in clear;
 * - a report on a check learns from its record; a check the client does not have is not found;
 * - a report stores its label (and the domain's hash, when the domain can be a campaign's) under the
 *   mailbox's hash in the client's reports and, for a sharing client, counts in the deployment's campaign
 *   memory under the address's campaign signatures, until the client's reports drop it (their cap);
 * - a check reads the client's label of the same mailbox, and for a protecting client how many sharing
 *   clients reported the address or its domain;
 * - erasure of an address removes its check records, every client's report of it and the campaign memory of
 *   the mailbox (its domain's is shared by other addresses and stays).
 */

/**
 * The maps (../data-access/email-feedback.ts): check records (per client, by check id), reports (per client,
 * a capped map from the mailbox's hash to its label) and the deployment's campaign memory.
 */
export interface FeedbackMaps {
  checks: Pick<CheckMemory, 'remember' | 'recall' | 'eraseClient' | 'eraseValue'>;
  reports: Pick<ClientMap, 'get' | 'update' | 'eraseClient' | 'eraseKey'>;
  campaigns: Pick<
    CampaignMemory,
    'report' | 'withdrawDropped' | 'reporters' | 'eraseClient' | 'eraseSignatures'
  >;
}

/** Who shares in the campaign memory. */
export interface EmailCampaigns {
  minClients: number;
  /** Whether the client's reports count towards the campaign memory (its `campaigns.share`). */
  shares(client: string): Promise<boolean>;
}

/** A store failure is a down dependency: 503, never a verdict without the client's reports. */
function unavailable(error: unknown): never {
  throw new AppError('SERVICE_UNAVAILABLE', { cause: error, internal: 'feedback store unavailable' });
}

/**
 * What a check record keeps of a report key (`local@ascii-domain`): the keyed hash of the mailbox and, when
 * its domain can be a campaign's, `:` and the keyed hash of the domain (what a report needs, nothing in clear).
 */
export function checkRecordOf(hashKey: string, key: string): string {
  const domain = campaignDomain(key);
  const mailbox = keyedHash(hashKey, key);
  return domain === null ? mailbox : `${mailbox}:${keyedHash(hashKey, domain)}`;
}

/** The mailbox's hash and the domain's (or null) of a check record. */
function parseRecord(record: string): [string, string | null] {
  const [mailbox = '', domain] = record.split(':');
  return [mailbox, domain ?? null];
}

/**
 * A stored report: its label and, when the domain can be a campaign's, `:` and the domain's hash (what
 * withdrawing its campaign signatures needs once the report is dropped; reports of earlier releases have the
 * label only, and withdraw the address's signature only).
 */
const reportValue = (label: FeedbackLabel, domain: string | null) =>
  domain === null ? label : `${label}:${domain}`;
const labelOf = (value: string) => value.split(':')[0] as FeedbackLabel;
const domainOf = (value: string) => value.split(':')[1] ?? null;

export function createEmailFeedback(
  stores: FeedbackMaps,
  hashKey: string,
  campaigns: EmailCampaigns,
): EmailFeedback {
  const { checks, reports } = stores;
  const recordOf = (email: string) => {
    const key = learnableKey(email);
    return key === null ? null : checkRecordOf(hashKey, key);
  };
  const store = async (client: string, record: string | null, label: FeedbackLabel) => {
    if (record === null) return;
    const [mailbox, domain] = parseRecord(record);
    // A ham report withdraws the client's own contribution whether it shares now or not.
    const shared = async () => {
      if (label === 'ham' || (await campaigns.shares(client)))
        await stores.campaigns.report(client, campaignSignatures(mailbox, domain), label, mailbox);
    };
    const [dropped] = await Promise.all([
      reports.update(client, [[mailbox, reportValue(label, domain)]]),
      shared(),
    ]).catch(unavailable);
    // A report the cap dropped no longer counts in the campaign memory either.
    await Promise.all(
      dropped.map(([key, value]) =>
        stores.campaigns.withdrawDropped(client, campaignSignatures(key, domainOf(value)), key),
      ),
    ).catch(unavailable);
  };
  return {
    async campaignOf(address) {
      const [mailbox, domain] = parseRecord(checkRecordOf(hashKey, reportKey(address)));
      const counts = await stores.campaigns.reporters(campaignSignatures(mailbox, domain)).catch(unavailable);
      return campaignReporters(counts, campaigns.minClients);
    },
    reportsOf: (client) =>
      client === undefined
        ? undefined
        : async (address) => {
            const value = await reports
              .get(client, keyedHash(hashKey, reportKey(address)))
              .catch(unavailable);
            return value === undefined ? undefined : labelOf(value);
          },
    async remember(client, email, checkId) {
      if (client === undefined) return;
      await checks.remember(client, checkId, recordOf(email) ?? '').catch(unavailable);
    },
    async reportCheck(client, checkId, label) {
      const record = await checks.recall(client, checkId).catch(unavailable);
      if (record === undefined) return false;
      await store(client, record === '' ? null : record, label);
      return true;
    },
    reportAddress: (client, email, label) => store(client, recordOf(email), label),
    eraseAddress: (email) => eraseAddress(stores, recordOf(email)),
    async eraseClient(client) {
      const [records, erased, campaign] = await Promise.all([
        checks.eraseClient(client),
        reports.eraseClient(client),
        stores.campaigns.eraseClient(client),
      ]);
      return { email_check_records: records, email_reports: erased, email_campaign_reports: campaign };
    },
  };
}

/**
 * Everything kept about one mailbox: check records (also those written before they held the domain's hash),
 * every client's report, and the campaign memory of the mailbox (its domain's is shared by other addresses
 * and stays).
 */
async function eraseAddress(stores: FeedbackMaps, record: string | null) {
  if (record === null) return { email_check_records: 0, email_reports: 0, email_campaign_reports: 0 };
  const [mailbox] = parseRecord(record);
  const [records, mailboxOnly, erased, campaign] = await Promise.all([
    stores.checks.eraseValue(record),
    record === mailbox ? 0 : stores.checks.eraseValue(mailbox),
    stores.reports.eraseKey(mailbox),
    stores.campaigns.eraseSignatures(campaignSignatures(mailbox, null)),
  ]);
  return {
    email_check_records: records + mailboxOnly,
    email_reports: erased,
    email_campaign_reports: campaign,
  };
}
