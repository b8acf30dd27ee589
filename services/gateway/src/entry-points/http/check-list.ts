import { checkListQuerySchema, type CheckList, type ReviewItem } from '@spam-check/contracts';
import { AppError, parseBody, requestContext } from '@spam-check/service-kit';
import type { RequestHandler } from 'express';
import type { ContentCipher } from '../../data-access/content-cipher';
import type { ReviewStore } from '../../data-access/review-store';
import { pageOf, type reviewCursors } from '../../domain/review-page';
import { callerOf } from './authenticate';

function unavailable(error: unknown): never {
  throw new AppError('SERVICE_UNAVAILABLE', { cause: error, internal: 'review store unavailable' });
}

/**
 * `GET /api/v1/checks`: the calling client's own checks, newest first (docs/review.md). The query is
 * validated (400 VALIDATION_FAILED, also for a cursor that is not this client's and query's), a page is read
 * from the store, and the kept content of its items is opened. The store down is 503 with Retry-After.
 */
export function checkList(deps: {
  store: ReviewStore;
  cipher: ContentCipher;
  cursors: ReturnType<typeof reviewCursors>;
  retentionSeconds: number;
}): RequestHandler {
  return async (req, res) => {
    const context = requestContext(res);
    const clientId = callerOf(res).clientId;
    const query = parseBody(checkListQuerySchema, req.query, context.language);
    const start = query.cursor === undefined ? undefined : deps.cursors.decode(clientId, query, query.cursor);
    const oldest = Date.now() - deps.retentionSeconds * 1000;
    const page = await pageOf(deps.store.rows(clientId), query, start, oldest).catch(unavailable);
    const ids = page.rows.map((row) => row.item.id);
    const sealed = await deps.store.contents(clientId, ids).catch(unavailable);
    const items = page.rows.map(({ item, report }, index): ReviewItem => {
      const kept = sealed[index];
      return {
        id: item.id,
        kind: item.kind,
        created_at: item.created_at,
        verdict: item.verdict,
        score: item.score,
        reasons: item.reasons,
        language: item.language,
        report,
        content: kept === undefined ? null : (deps.cipher.open(clientId, item.id, kept) ?? null),
        preview: item.preview,
      };
    });
    const answer: CheckList = {
      items,
      next_cursor: page.next === null ? null : deps.cursors.encode(clientId, query, page.next),
      request_id: context.requestId,
    };
    res.json(answer);
  };
}
