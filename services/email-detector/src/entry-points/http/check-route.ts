import { requestSchemas } from '@spam-check/contracts';
import { elapsedMs, parseBody, postRoute, requestContext } from '@spam-check/service-kit';
import type { Express } from 'express';
import { checkEmail } from '../../domain/check-email';

export function mountCheckRoute(app: Express): void {
  postRoute(app, '/v1/check', async (req, res) => {
    const context = requestContext(res);
    const { email } = parseBody(requestSchemas.mail, req.body);
    const result = await checkEmail({ email, language: context.language, requestId: context.requestId });
    res.json({ ...result, duration_ms: elapsedMs(context) });
  });
}
