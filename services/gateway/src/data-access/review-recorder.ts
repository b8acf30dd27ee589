import type { ClientSettingsStore } from '@spam-check/client-settings';
import { keyedHash } from '@spam-check/client-state';
import type { Counter, Logger } from '@spam-check/service-kit';
import { mailboxOf } from '../domain/mailbox';
import { keptContentDays, reviewItemOf, type CheckedItem } from '../domain/review-item';
import type { ContentCipher } from './content-cipher';
import type { ReviewEntry, ReviewStore } from './review-store';

export interface ReviewRecorder {
  /**
   * Keeps a client's checks for its review list. Fire and forget: never throws, never delays the check; a
   * write Redis did not take is logged and counted as lost. The checks answered in one turn of the event loop
   * are written together after it (`setImmediate`), one store call per client and at most WRITE_AT_ONCE
   * checks: under load that is one Redis script for many checks instead of one each.
   */
  record(clientId: string, checks: readonly CheckedItem[]): void;
  /** Writes the checks not yet written (at shutdown, before the Redis connection closes). */
  flush(): Promise<void>;
}

/** The most checks one store call writes (a batch of 1,000 items is one call; many batches are several). */
const WRITE_AT_ONCE = 1000;

/** A check to keep and when it was answered. */
interface Timed {
  item: CheckedItem;
  at: Date;
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
    keptContentDays(await deps.settings?.get(clientId), deps.keepContentDaysDefault);
  const write = async (clientId: string, checks: readonly Timed[]) => {
    const days = await keepDays(clientId);
    const entries = checks.map(({ item: { checked, submitted }, at }): ReviewEntry => {
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
    for (let start = 0; start < entries.length; start += WRITE_AT_ONCE)
      await deps.store.add(clientId, entries.slice(start, start + WRITE_AT_ONCE));
  };
  const lostWrite = (clientId: string, count: number) => (error: unknown) => {
    deps.lost.inc({ kind: 'review' }, count);
    deps.logger.warn({ err: error, client_id: clientId, checks: count }, 'review list: checks not kept');
  };
  let pending = new Map<string, Timed[]>();
  let scheduled: NodeJS.Immediate | undefined;
  const flush = async () => {
    if (scheduled) clearImmediate(scheduled);
    scheduled = undefined;
    const batch = pending;
    pending = new Map();
    await Promise.all(
      [...batch].map(([clientId, checks]) =>
        write(clientId, checks).catch(lostWrite(clientId, checks.length)),
      ),
    );
  };
  return {
    record(clientId, checks) {
      if (deps.retentionSeconds === 0 || clientId === '' || checks.length === 0) return;
      const at = new Date();
      const timed = checks.map((item) => ({ item, at }));
      const listed = pending.get(clientId);
      if (listed) listed.push(...timed);
      else pending.set(clientId, timed);
      scheduled ??= setImmediate(() => void flush());
    },
    flush,
  };
}
