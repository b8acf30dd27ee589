import { summarize, type BatchItemError } from '@spam-check/contracts';
import { elapsedMs, fairShare, parseBody, requestContext } from '@spam-check/service-kit';
import type { Request, RequestHandler, Response } from 'express';
import type { z } from 'zod';
import type { RateLimitStore } from '../../domain/rate-limit';
import { assembleResults, planBatch } from '../../domain/batch-check';
import type { CallMeta } from '../../domain/hybrid-check';
import { batchRateLimitHeaders } from '../../domain/rate-limit';
import { callerOf } from './authenticate';

export interface BatchKind<T, R extends { verdict: 'ham' | 'suspicious' | 'spam' }> {
  /** The list's field in the request body (`emails`, `items`). */
  field: string;
  /** The request as a whole: the list with 1 to the maximum number of items (else 400). */
  envelope: z.ZodType<Record<string, unknown[]>>;
  item: z.ZodType<T>;
  check: (items: T[], meta: CallMeta) => Promise<R[]>;
  /** Called with the checked items and their results once the answer has gone (usage, review list). */
  onResults?: (res: Response, results: R[], items: T[]) => void;
}

/**
 * `POST /api/v1/spam/{mail,text}/batch` (docs/design.md, Batch checks), after `authenticate` and the JSON
 * body parser with `MAX_BATCH_BODY_BYTES`. Order: the envelope (400 for no list, no items or too many), the
 * rate limit (one request per item, in one reservation; see `batchRateLimitHeaders`), then the items: invalid
 * and over-the-limit ones get a per-item problem, the others go to the detector in one call, and the answer
 * lists them all in request order with a summary of the verdicts. A detector failure fails the whole batch
 * (503, 504 or 502, as for a single check); its items stay counted, as a failed single check does.
 * A client's batches of one kind are handled one at a time, in order (the kit's `fairShare`): the detector
 * runs a client's checks in turn anyway, and one client's parallel batches would otherwise take the
 * gateway's event loop from everyone else's checks for the sum of their answers' parsing and writing.
 */
export function batchCheck<T, R extends { verdict: 'ham' | 'suspicious' | 'spam' }>(
  kind: BatchKind<T, R>,
  rateLimit: { store: RateLimitStore; limit: number; windowSeconds: number },
): RequestHandler {
  const oneAtATime = fairShare(1);
  return (req, res) => oneAtATime(callerOf(res).clientId, 1, () => checkBatch(kind, rateLimit, req, res));
}

async function checkBatch<T, R extends { verdict: 'ham' | 'suspicious' | 'spam' }>(
  kind: BatchKind<T, R>,
  rateLimit: { store: RateLimitStore; limit: number; windowSeconds: number },
  req: Request,
  res: Response,
): Promise<void> {
  const context = requestContext(res);
  const items = parseBody(kind.envelope, req.body, context.language)[kind.field]!;
  const clientId = callerOf(res).clientId;
  let granted = items.length;
  if (rateLimit.limit > 0) {
    const allowance = await rateLimit.store.take(clientId, rateLimit.windowSeconds * 1000, items.length);
    res.set(batchRateLimitHeaders(allowance, items.length, rateLimit.limit, rateLimit.windowSeconds));
    granted = allowance.granted;
  }
  const plan = planBatch(items, kind.item, granted, kind.field, context.language);
  const meta = { requestId: context.requestId, language: context.language, clientId };
  const checkedItems = plan.checked.map(({ item }) => item);
  const checked = await kind.check(checkedItems, meta);
  const results: (R | BatchItemError)[] = assembleResults(items.length, plan, checked, meta);
  res.json({
    results,
    summary: summarize(results),
    request_id: context.requestId,
    duration_ms: elapsedMs(context),
  });
  kind.onResults?.(res, checked, checkedItems);
}
