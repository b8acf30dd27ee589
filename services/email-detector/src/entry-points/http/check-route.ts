import type { MailCheckRequest } from '@spam-check/contracts';
import { clientIdOf, elapsedMs, parseBody, postRoute, requestContext } from '@spam-check/service-kit';
import type { Express } from 'express';
import type { z } from 'zod';
import { runEmailCheck, type EmailChecker } from '../../email-check-deps';

export function mountCheckRoute(
  app: Express,
  checker: EmailChecker,
  schema: z.ZodType<MailCheckRequest>,
): void {
  postRoute(app, '/v1/check', async (req, res) => {
    const context = requestContext(res);
    const { email } = parseBody(schema, req.body);
    const result = await runEmailCheck(
      checker,
      { email, language: context.language, requestId: context.requestId, clientId: clientIdOf(req) },
      'http',
    );
    res.json({ ...result, duration_ms: elapsedMs(context) });
  });
}
