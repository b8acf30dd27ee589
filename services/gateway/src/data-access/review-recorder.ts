import type { ClientSettingsStore } from '@spam-check/client-settings';
import { keyedHash } from '@spam-check/client-state';
import type { Counter, Logger } from '@spam-check/service-kit';
import { mailboxOf } from '../domain/mailbox';
import { reviewItemOf, type CheckedResult, type Submitted } from '../domain/review-item';
import type { ContentCipher } from './content-cipher';
import type { ReviewEntry, ReviewStore } from './review-store';

export interface ReviewRecorder {
  /**
   * Keeps a client's checks for its review list. Fire and forget: never throws, never delays the check; a
   * write Redis did not take is logged and counted as lost.
   */
  record(clientId: string, checks: readonly { checked: CheckedResult; submitted: Submitted }[]): void;
}

/** The keyed hash of an address's mailbox, as the review list keeps it and erasure looks it up. */
export const addressHash = (key: Buffer, email: string) => keyedHash(key.toString('hex'), mailboxOf(email));

/**
 * The rules: nothing is kept when FEEDBACK_RETENTION_SECONDS is 0 or the caller has no client id; the
 * submitted fields are kept (sealed) when the client's `review.keep_content_days`, or the operator default,
 * is above 0, for that many days but never longer than the item; an address is kept only as its keyed hash.
 */
export function reviewRecorder(deps: {
  store: ReviewStore;
  cipher: ContentCipher;
  settings: ClientSettingsStore | undefined;
  keepContentDaysDefault: number;
  retentionSeconds: number;
  addressKey: Buffer;
  logger: Logger;
  lost: Counter<'kind'>;
}): ReviewRecorder {
  const keepDays = async (clientId: string) =>
    (await deps.settings?.get(clientId))?.review?.keep_content_days ?? deps.keepContentDaysDefault;
  const write = async (
    clientId: string,
    checks: readonly { checked: CheckedResult; submitted: Submitted }[],
  ) => {
    const days = await keepDays(clientId);
    const at = new Date();
    const entries = checks.map(({ checked, submitted }): ReviewEntry => {
      const item = reviewItemOf(checked, submitted, { keepsContent: days > 0, at });
      const { content, report: _report, ...stored } = item;
      return {
        at: at.getTime(),
        item: stored,
        emailHash: submitted.email === undefined ? undefined : addressHash(deps.addressKey, submitted.email),
        content:
          content === null
            ? undefined
            : {
                sealed: deps.cipher.seal(clientId, item.id, content),
                seconds: Math.min(days * 24 * 3600, deps.retentionSeconds),
              },
      };
    });
    await deps.store.add(clientId, entries);
  };
  return {
    record(clientId, checks) {
      if (deps.retentionSeconds === 0 || clientId === '' || checks.length === 0) return;
      write(clientId, checks).catch((error: unknown) => {
        deps.lost.inc({ kind: 'review' }, checks.length);
        deps.logger.warn(
          { err: error, client_id: clientId, checks: checks.length },
          'review list: checks not kept',
        );
      });
    },
  };
}
