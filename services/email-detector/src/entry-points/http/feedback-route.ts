import { createFeedbackSchemas, type CheckLimits } from '@spam-check/contracts';
import { requiredClientId } from '@spam-check/detector-kit';
import { AppError, parseBody, postRoute, requestContext } from '@spam-check/service-kit';
import type { Express } from 'express';
import type { EmailFeedback } from '../../domain/reports';

/**
 * `POST /v1/feedback` (internal, called by the gateway): `{check_id, label}` or `{email, label}` for the
 * client in `X-Client-Id`. 200 `{applied: true}`, 404 CHECK_NOT_FOUND for a check this client does not have.
 */
export function mountFeedbackRoute(app: Express, feedback: EmailFeedback, limits: CheckLimits): void {
  const schemas = createFeedbackSchemas(limits);
  postRoute(app, '/v1/feedback', async (req, res) => {
    const client = requiredClientId(req);
    const { language } = requestContext(res);
    const form = schemas.formOf(req.body);
    if (form === schemas.byCheck) {
      const { check_id, label } = parseBody(schemas.byCheck, req.body, language);
      if (!(await feedback.reportCheck(client, check_id, label))) throw new AppError('CHECK_NOT_FOUND');
    } else {
      const { email, label } = parseBody(schemas.byEmail, req.body, language);
      await feedback.reportAddress(client, email, label);
    }
    res.json({ applied: true });
  });
}
