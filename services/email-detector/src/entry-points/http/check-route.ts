import type { MailCheckRequest } from '@spam-check/contracts';
import { elapsedMs, parseBody, postRoute, requestContext } from '@spam-check/service-kit';
import type { Express } from 'express';
import type { z } from 'zod';
import { checkEmail } from '../../domain/check-email';
import type { EmailChecker } from '../../email-check-deps';

export function mountCheckRoute(
  app: Express,
  checker: EmailChecker,
  schema: z.ZodType<MailCheckRequest>,
): void {
  postRoute(app, '/v1/check', async (req, res) => {
    const context = requestContext(res);
    const { email } = parseBody(schema, req.body);
    const clientId = req.headers['x-client-id'];
    const client = await checker.clientSettings(typeof clientId === 'string' ? clientId : undefined);
    const result = await checkEmail(
      { email, language: context.language, requestId: context.requestId, client },
      checker.deps,
    );
    checker.checks.inc({ verdict: result.verdict, entry_point: 'http' });
    res.json({ ...result, duration_ms: elapsedMs(context) });
  });
}
