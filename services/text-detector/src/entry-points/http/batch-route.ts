import { BATCH_LIMITS, type TextCheckRequest } from '@spam-check/contracts';
import {
  clientIdOf,
  elapsedMs,
  jsonBodyParser,
  mapConcurrently,
  parseBody,
  postRoute,
  requestContext,
} from '@spam-check/service-kit';
import type { Express } from 'express';
import { z } from 'zod';
import type { CheckClientText } from '../../dependencies';

/** At most this many texts of one batch are checked at once (each may wait for the LLM). */
const CONCURRENCY = 8;

/**
 * `POST /v1/check/batch` `{items: [{title, body, sub_title?}, ...]}` → `{results: [...]}` in the same order:
 * the gateway's batch check (DESIGN.md §6.2) sends the valid items of a batch here in one call. Each item is
 * checked by the same domain function as `POST /v1/check`; an invalid item fails the whole call (the gateway
 * has already answered those itself). Mounted before the kit's body parser, for `MAX_BATCH_BODY_BYTES`.
 */
export function mountBatchRoute(
  app: Express,
  checkText: CheckClientText,
  schema: z.ZodType<TextCheckRequest>,
  bodyLimit: number,
): void {
  const batch = z.object({ items: z.array(schema).min(1).max(BATCH_LIMITS.textItems) });
  postRoute(app, '/v1/check/batch', jsonBodyParser(bodyLimit), async (req, res) => {
    const context = requestContext(res);
    const { items } = parseBody(batch, req.body);
    const clientId = clientIdOf(req);
    const results = await mapConcurrently(items, CONCURRENCY, async (item) => {
      const started = process.hrtime.bigint();
      const result = await checkText({
        ...item,
        language: context.language,
        requestId: context.requestId,
        clientId,
      });
      return { ...result, duration_ms: Number(process.hrtime.bigint() - started) / 1e6 };
    });
    res.json({ results, duration_ms: elapsedMs(context) });
  });
}
