import type { IncomingMessage } from 'node:http';
import type { Language } from '@spam-check/contracts';
import type { RequestHandler, Router } from 'express';
import { z } from 'zod';
import {
  elapsedMs,
  parseBody,
  postRoute,
  readJsonBody,
  requestContext,
  sendJson,
  type RequestContext,
} from '@spam-check/service-kit';
import { clientIdOf } from './client-id';
import { mapConcurrently } from './concurrency';

interface CheckRouteOptions<Item, Result> {
  /** The schema of one check's body (one item of a batch). */
  item: z.ZodType<Item>;
  bodyLimit: number;
  /** The detector's single-check function, shared by its check and batch routes. */
  check: (item: Item, meta: CheckMeta) => Promise<Result>;
}

/** What a check takes besides its body: the language, the request id and the client the gateway names. */
export interface CheckMeta {
  language: Language;
  requestId: string;
  clientId: string | undefined;
}

interface BatchRouteOptions<Item, Result> extends CheckRouteOptions<Item, Result> {
  maxItems: number;
  /** Items checked at once. */
  concurrency: number;
}

/**
 * A check's result with its `duration_ms` last, as every entry point answers it. `Object.assign` onto a new
 * object rather than `{ ...result, duration_ms }`: on Node 20 a property written after a spread gives each
 * result a hidden class of its own (service-kit README, "Per-request objects").
 */
export function withDuration<Result extends object>(
  result: Result,
  durationMs: number,
): Result & { duration_ms: number } {
  return Object.assign({}, result, { duration_ms: durationMs });
}

const metaOf = (req: IncomingMessage, context: RequestContext): CheckMeta => ({
  language: context.language,
  requestId: context.requestId,
  clientId: clientIdOf(req),
});

/**
 * `POST /v1/check`: a detector's check; the gateway forwards the client (`X-Client-Id`) and the language. It
 * reads its own body, with the detector's `MAX_BODY_BYTES`.
 */
function checkRoute<Item, Result extends object>(options: CheckRouteOptions<Item, Result>): RequestHandler {
  return async (req, res) => {
    const context = requestContext(res);
    const item = parseBody(options.item, await readJsonBody(req, options.bodyLimit), context.language);
    const result = await options.check(item, metaOf(req, context));
    sendJson(res, 200, withDuration(result, elapsedMs(context)));
  };
}

/**
 * `POST /v1/check/batch` `{items: [...]}` → `{results: [...], duration_ms}` in the same order, for the
 * gateway's batch check (docs/design.md, Batch checks), which sends the valid items of a batch here in one
 * call. Each item goes through the detector's single-check function; an invalid item fails the whole call
 * (the gateway has already answered those itself). It reads its own body, with its own limit
 * (`MAX_BATCH_BODY_BYTES`).
 */
function batchRoute<Item, Result extends object>(options: BatchRouteOptions<Item, Result>): RequestHandler {
  const batch = z.object({ items: z.array(options.item).min(1).max(options.maxItems) });
  return async (req, res) => {
    const context = requestContext(res);
    const { items } = parseBody(batch, await readJsonBody(req, options.bodyLimit), context.language);
    const meta = metaOf(req, context);
    const results = await mapConcurrently(items, options.concurrency, async (item) => {
      const started = process.hrtime.bigint();
      const result = await options.check(item, meta);
      return withDuration(result, Number(process.hrtime.bigint() - started) / 1e6);
    });
    sendJson(res, 200, { results, duration_ms: elapsedMs(context) });
  };
}

/**
 * Mounts a detector's two check routes, `POST /v1/check` and `POST /v1/check/batch`, around its one check
 * function, each with its body limit from the service's config (the kit's `hotRoutes`).
 */
export function checkRoutes<Item, Result extends object>(
  options: Omit<BatchRouteOptions<Item, Result>, 'bodyLimit'>,
  limits: { MAX_BODY_BYTES: number; MAX_BATCH_BODY_BYTES: number },
): (router: Router) => void {
  const check = checkRoute({ ...options, bodyLimit: limits.MAX_BODY_BYTES });
  const batch = batchRoute({ ...options, bodyLimit: limits.MAX_BATCH_BODY_BYTES });
  return (router) => {
    postRoute(router, '/v1/check', check);
    postRoute(router, '/v1/check/batch', batch);
  };
}
