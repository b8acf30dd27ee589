import { createFeedbackSchemas, type CheckLimits } from '@spam-check/contracts';
import { requiredClientId } from '@spam-check/detector-kit';
import { AppError, parseBody, postRoute, requestContext } from '@spam-check/service-kit';
import type { Express } from 'express';
import type { createTextLearner } from '../../domain/check-text';
import type { ReportsInTurn } from '../../domain/client-reports';
import type { LearnFromReports } from '../../domain/learn-from-report';

/**
 * `POST /v1/feedback` (internal, called by the gateway): `{check_id, label}` or `{title, body, sub_title?,
 * label}` for the client in `X-Client-Id`. 200 `{applied: true}`, 404 CHECK_NOT_FOUND for a check this
 * client does not have, 429 RATE_LIMITED when the client's queue of reports is full. The body is validated
 * first; all of a report's work (the text's features included) runs in the client's turn (`reports`).
 */
export function mountFeedbackRoute(
  app: Express,
  deps: {
    feedback: LearnFromReports;
    learnText: ReturnType<typeof createTextLearner>;
    reports: ReportsInTurn;
  },
  limits: CheckLimits,
): void {
  const { feedback, learnText, reports } = deps;
  const schemas = createFeedbackSchemas(limits);
  postRoute(app, '/v1/feedback', async (req, res) => {
    const client = requiredClientId(req);
    const { language } = requestContext(res);
    if (schemas.formOf(req.body) === schemas.byCheck) {
      const { check_id, label } = parseBody(schemas.byCheck, req.body, language);
      if (!(await reports(client, () => feedback.reportCheck(client, check_id, label))))
        throw new AppError('CHECK_NOT_FOUND');
    } else {
      const { label, ...text } = parseBody(schemas.byText, req.body, language);
      await reports(client, () => feedback.reportText(client, learnText(text), label));
    }
    res.json({ applied: true });
  });
}
