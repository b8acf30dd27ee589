import type { ClientSettingsStore } from '@spam-check/client-settings';
import type { FeedbackLabel } from '@spam-check/contracts';
import { Counter, type Logger, type Metrics } from '@spam-check/service-kit';
import { reviewCursors } from '../domain/review-page';
import type { ReviewConfig } from '../config';
import { contentCipher, derivedKey, type ContentCipher } from './content-cipher';
import { reviewRecorder, type ReviewRecorder } from './review-recorder';
import type { ReviewStore } from './review-store';

/** The review list's parts, as the routes, the checks, feedback and erasure use them. */
export interface Review {
  store: ReviewStore;
  cipher: ContentCipher;
  cursors: ReturnType<typeof reviewCursors>;
  recorder: ReviewRecorder;
  /** A report applied by check id: shown on the item. Fire and forget. */
  reported: (clientId: string, checkId: string, label: FeedbackLabel) => void;
  addressKey: Buffer;
  retentionSeconds: number;
}

/** The review list over `store`, its keys derived from REVIEW_CONTENT_KEY. */
export function createReview(deps: {
  store: ReviewStore;
  config: ReviewConfig;
  retentionSeconds: number;
  settings: ClientSettingsStore | undefined;
  logger: Logger;
  metrics: Metrics;
}): Review {
  const { store, config, retentionSeconds, logger } = deps;
  const cipher = contentCipher(config.contentKey);
  const addressKey = derivedKey(config.contentKey, 'address');
  const lost = new Counter({
    name: 'gateway_review_items_lost_total',
    help: 'Checks or reports the review list did not keep because its store refused them, by kind',
    labelNames: ['kind'] as const,
    registers: [deps.metrics.registry],
  });
  return {
    store,
    cipher,
    cursors: reviewCursors(derivedKey(config.contentKey, 'cursor'), retentionSeconds),
    recorder: reviewRecorder({
      store,
      cipher,
      settings: deps.settings,
      keepContentDaysDefault: config.keepContentDaysDefault,
      retentionSeconds,
      addressKey,
      logger,
      lost,
    }),
    reported: (clientId, checkId, label) => {
      store.report(clientId, checkId, label, new Date()).catch((error: unknown) => {
        lost.inc({ kind: 'report' });
        logger.warn({ err: error, client_id: clientId }, 'review list: report not shown on its check');
      });
    },
    addressKey,
    retentionSeconds,
  };
}
