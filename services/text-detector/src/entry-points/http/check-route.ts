import type { TextCheckRequest } from '@spam-check/contracts';
import { clientIdOf, elapsedMs, parseBody, postRoute, requestContext } from '@spam-check/service-kit';
import type { Express } from 'express';
import type { z } from 'zod';
import type { CheckClientText } from '../../dependencies';

export function mountCheckRoute(
  app: Express,
  checkText: CheckClientText,
  schema: z.ZodType<TextCheckRequest>,
): void {
  postRoute(app, '/v1/check', async (req, res) => {
    const context = requestContext(res);
    const body = parseBody(schema, req.body);
    const result = await checkText({
      ...body,
      language: context.language,
      requestId: context.requestId,
      clientId: clientIdOf(req),
    });
    res.json({ ...result, duration_ms: elapsedMs(context) });
  });
}
