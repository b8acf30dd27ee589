import type { Language } from '@spam-check/contracts';
import type { Express } from 'express';
import { z } from 'zod';
import { jsonBodyParser } from './body';
import { clientIdOf } from './client-id';
import { mapConcurrently } from './concurrency';
import { elapsedMs, requestContext } from './context';
import { postRoute } from './app';
import { parseBody } from './validate';

export interface BatchRouteOptions<Item, Result> {
  /** The schema of one item: the same as the detector's single check. */
  item: z.ZodType<Item>;
  maxItems: number;
  bodyLimit: number;
  /** Items checked at once. */
  concurrency: number;
  check: (
    item: Item,
    meta: { language: Language; requestId: string; clientId: string | undefined },
  ) => Promise<Result>;
}

/**
 * `POST /v1/check/batch` `{items: [...]}` → `{results: [...], duration_ms}` in the same order, for the
 * gateway's batch check (DESIGN.md §6.2), which sends the valid items of a batch here in one call. Each item
 * goes through the detector's single-check function; an invalid item fails the whole call (the gateway has
 * already answered those itself). Mount it before the kit's body parser, for `MAX_BATCH_BODY_BYTES`.
 */
export function mountBatchRoute<Item, Result extends object>(
  app: Express,
  options: BatchRouteOptions<Item, Result>,
): void {
  const batch = z.object({ items: z.array(options.item).min(1).max(options.maxItems) });
  postRoute(app, '/v1/check/batch', jsonBodyParser(options.bodyLimit), async (req, res) => {
    const context = requestContext(res);
    const { items } = parseBody(batch, req.body);
    const meta = { language: context.language, requestId: context.requestId, clientId: clientIdOf(req) };
    const results = await mapConcurrently(items, options.concurrency, async (item) => {
      const started = process.hrtime.bigint();
      const result = await options.check(item, meta);
      return { ...result, duration_ms: Number(process.hrtime.bigint() - started) / 1e6 };
    });
    res.json({ results, duration_ms: elapsedMs(context) });
  });
}
