import type { Language } from '@spam-check/contracts';
import { z } from 'zod';
import { readJsonBody } from './body';
import { clientIdOf } from './client-id';
import { mapConcurrently } from './concurrency';
import { elapsedMs } from './context';
import type { DirectRoute } from './direct-route';
import { sendJson } from './respond';
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
 * already answered those itself). A direct route, so its body limit is its own (`MAX_BATCH_BODY_BYTES`).
 */
export function batchRoute<Item, Result extends object>(
  options: BatchRouteOptions<Item, Result>,
): DirectRoute {
  const batch = z.object({ items: z.array(options.item).min(1).max(options.maxItems) });
  return {
    path: '/v1/check/batch',
    handle: async (req, res, context) => {
      const { items } = parseBody(batch, await readJsonBody(req, options.bodyLimit));
      const meta = { language: context.language, requestId: context.requestId, clientId: clientIdOf(req) };
      const results = await mapConcurrently(items, options.concurrency, async (item) => {
        const started = process.hrtime.bigint();
        const result = await options.check(item, meta);
        return { ...result, duration_ms: Number(process.hrtime.bigint() - started) / 1e6 };
      });
      sendJson(res, 200, { results, duration_ms: elapsedMs(context) });
    },
  };
}
