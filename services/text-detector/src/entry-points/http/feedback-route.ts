import { createFeedbackSchemas, type CheckLimits } from '@spam-check/contracts';
import { AppError, parseBody, postRoute, requestContext, requiredClientId } from '@spam-check/service-kit';
import type { Express } from 'express';
import type { createTextLearner } from '../../domain/check-text';
import type { TextFeedbackStore } from '../../data-access/text-feedback-store';

/**
 * `POST /v1/feedback` (internal, called by the gateway): `{check_id, label}` or `{title, body, sub_title?,
 * label}` for the client in `X-Client-Id`. 200 `{applied: true}`, 404 CHECK_NOT_FOUND for a check this
 * client does not have.
 */
export function mountFeedbackRoute(
  app: Express,
  feedback: TextFeedbackStore,
  learnText: ReturnType<typeof createTextLearner>,
  limits: CheckLimits,
): void {
  const schemas = createFeedbackSchemas(limits);
  postRoute(app, '/v1/feedback', async (req, res) => {
    const client = requiredClientId(req);
    const { language } = requestContext(res);
    if (schemas.formOf(req.body) === schemas.byCheck) {
      const { check_id, label } = parseBody(schemas.byCheck, req.body, language);
      if (!(await feedback.reportCheck(client, check_id, label))) throw new AppError('CHECK_NOT_FOUND');
    } else {
      const { label, ...text } = parseBody(schemas.byText, req.body, language);
      await feedback.reportText(client, learnText(text), label);
    }
    res.json({ applied: true });
  });
}
