import { checkListQuerySchema, type CheckList } from '@spam-check/contracts';
import { AppError, parseBody, requestContext } from '@spam-check/service-kit';
import type { Request, Response } from 'express';
import type { ContentCipher } from '../../data-access/content-cipher';
import type { ReviewStore } from '../../data-access/review-store';
import { pageOf, reviewItemOfRow, type reviewCursors } from '../../domain/review-page';

function unavailable(error: unknown): never {
  throw new AppError('SERVICE_UNAVAILABLE', { cause: error, internal: 'review store unavailable' });
}

/**
 * A page of the client `clientId`'s checks, newest first (docs/review.md): `GET /api/v1/checks` for the
 * calling client, `GET /api/v1/admin/clients/{id}/checks` for the console. The query is validated (400
 * VALIDATION_FAILED, also for a cursor that is not this client's and query's), a page is read from the store,
 * and the kept content of its items is opened. The store down is 503 with Retry-After.
 */
export function checkList(deps: {
  store: ReviewStore;
  cipher: ContentCipher;
  cursors: ReturnType<typeof reviewCursors>;
  retentionSeconds: number;
}): (req: Request, res: Response, clientId: string) => Promise<void> {
  return async (req, res, clientId) => {
    const context = requestContext(res);
    const query = parseBody(checkListQuerySchema, req.query, context.language);
    const start = query.cursor === undefined ? undefined : deps.cursors.decode(clientId, query, query.cursor);
    const oldest = Date.now() - deps.retentionSeconds * 1000;
    const page = await pageOf(deps.store.rows(clientId), query, start, oldest).catch(unavailable);
    const ids = page.rows.map((row) => row.item.id);
    const sealed = await deps.store.contents(clientId, ids).catch(unavailable);
    const items = page.rows.map((row, index) => {
      const kept = sealed[index];
      return reviewItemOfRow(
        row,
        kept === undefined ? null : (deps.cipher.open(clientId, row.item.id, kept) ?? null),
      );
    });
    const answer: CheckList = {
      items,
      next_cursor: page.next === null ? null : deps.cursors.encode(clientId, query, page.next),
      request_id: context.requestId,
    };
    res.json(answer);
  };
}
