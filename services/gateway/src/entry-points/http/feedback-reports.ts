import {
  feedbackReportsRequestSchema,
  safeParseIn,
  type FeedbackByCheck,
  type FeedbackReportsResult,
} from '@spam-check/contracts';
import { buildProblem, isAppError, parseBody, requestContext } from '@spam-check/service-kit';
import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { ApplyReport } from './feedback';

/** Reports of one request applied at the same time (each asks one or two detectors). */
const AT_ONCE = 8;

/**
 * `POST /api/v1/spam/feedback` with `{"reports": [{check_id, label}, ...]}`: 1 to 100 reports (else 400 for
 * the whole request), each validated and applied on its own, and answered in request order as its result or
 * its problem (VALIDATION_FAILED under `reports.<index>`, CHECK_NOT_FOUND, RATE_LIMITED, SERVICE_UNAVAILABLE,
 * ...): one refused report never holds back the others. The request counts once for the rate limit.
 */
export function feedbackReports(
  byCheck: z.ZodType<FeedbackByCheck>,
  apply: ApplyReport,
): (req: Request, res: Response, clientId: string) => Promise<void> {
  return async (req, res, clientId) => {
    const context = requestContext(res);
    const meta = { requestId: context.requestId, language: context.language, clientId };
    const { reports } = parseBody(feedbackReportsRequestSchema, req.body, context.language);
    const results = new Array<FeedbackReportsResult['results'][number]>(reports.length);
    const one = async (index: number) => {
      const parsed = safeParseIn(byCheck, reports[index], context.language);
      if (!parsed.success) {
        const errors = parsed.error.issues.map((issue) => ({
          path: ['reports', index, ...issue.path].join('.'),
          message: issue.message,
        }));
        results[index] = { error: buildProblem('VALIDATION_FAILED', meta.language, meta.requestId, errors) };
        return;
      }
      try {
        results[index] = await apply(parsed.data, meta);
      } catch (error) {
        if (!isAppError(error)) throw error;
        results[index] = { error: buildProblem(error.code, meta.language, meta.requestId, error.errors) };
      }
    };
    for (let start = 0; start < reports.length; start += AT_ONCE)
      await Promise.all(reports.slice(start, start + AT_ONCE).map((_report, offset) => one(start + offset)));
    const answer: FeedbackReportsResult = { results, request_id: context.requestId };
    res.json(answer);
  };
}
