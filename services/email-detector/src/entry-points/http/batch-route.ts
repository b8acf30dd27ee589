import { BATCH_LIMITS, type MailCheckRequest } from '@spam-check/contracts';
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
import { runEmailCheck, type EmailChecker } from '../../email-check-deps';

/** At most this many addresses of one batch are checked at once (each may wait for a DNS answer). */
const CONCURRENCY = 64;

/**
 * `POST /v1/check/batch` `{items: [{email}, ...]}` → `{results: [...]}` in the same order: the gateway's
 * batch check (DESIGN.md §6.2) sends the valid items of a batch here in one call. Each item is checked by
 * the same domain function as `POST /v1/check`; an invalid item fails the whole call (the gateway has already
 * answered those itself). Mounted before the kit's body parser, for the larger `MAX_BATCH_BODY_BYTES`.
 */
export function mountBatchRoute(
  app: Express,
  checker: EmailChecker,
  schema: z.ZodType<MailCheckRequest>,
  bodyLimit: number,
): void {
  const batch = z.object({ items: z.array(schema).min(1).max(BATCH_LIMITS.mailItems) });
  postRoute(app, '/v1/check/batch', jsonBodyParser(bodyLimit), async (req, res) => {
    const context = requestContext(res);
    const { items } = parseBody(batch, req.body);
    const clientId = clientIdOf(req);
    const results = await mapConcurrently(items, CONCURRENCY, async ({ email }) => {
      const started = process.hrtime.bigint();
      const result = await runEmailCheck(
        checker,
        { email, language: context.language, requestId: context.requestId, clientId },
        'http',
      );
      return { ...result, duration_ms: Number(process.hrtime.bigint() - started) / 1e6 };
    });
    res.json({ results, duration_ms: elapsedMs(context) });
  });
}
