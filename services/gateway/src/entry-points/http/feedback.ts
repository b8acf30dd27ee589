import { randomUUID } from 'node:crypto';
import {
  createFeedbackSchemas,
  type CheckLimits,
  type FeedbackPart,
  type FeedbackRequest,
  type FeedbackResult,
} from '@spam-check/contracts';
import type { CheckMemory } from '@spam-check/client-state';
import { isAppError, parseBody, requestContext } from '@spam-check/service-kit';
import type { Request, Response } from 'express';
import type { HttpDetector } from '../../data-access/detector-client';
import { sendFeedback } from '../../data-access/detectors';
import { recallHybridParts } from '../../data-access/hybrid-parts';
import type { UsageStore } from '../../data-access/usage-store';
import { routeFeedback } from '../../domain/feedback';
import type { CallMeta } from '../../domain/hybrid-check';
import { feedbackReports } from './feedback-reports';

export interface FeedbackOptions {
  detectors: Record<FeedbackPart, HttpDetector>;
  hybrids: CheckMemory;
  usage?: UsageStore | undefined;
  /** Called with each report applied by check id (the review list shows it). Must not throw or wait. */
  onReported?: ((clientId: string, checkId: string, label: FeedbackRequest['label']) => void) | undefined;
  limits: CheckLimits;
  timeoutMs: number;
}

/** Applies one validated report for the caller of `meta`: the detectors learn from it, it is counted. */
export type ApplyReport = (
  request: FeedbackRequest,
  meta: CallMeta,
) => Promise<Omit<FeedbackResult, 'request_id'>>;

function reportApplier(options: FeedbackOptions): ApplyReport {
  return async (request, meta) => {
    const send = async (part: FeedbackPart, body: object): Promise<boolean> => {
      try {
        await sendFeedback(options.detectors[part], body, meta, options.timeoutMs);
        return true;
      } catch (error) {
        if (isAppError(error) && error.code === 'CHECK_NOT_FOUND') return false;
        throw error;
      }
    };
    const hybridParts = (checkId: string) => recallHybridParts(options.hybrids, meta.clientId, checkId);
    const applied = await routeFeedback(request, hybridParts, send, (part) =>
      options.detectors[part].isDown(),
    );
    const result = {
      id: randomUUID(),
      check_id: 'check_id' in request ? request.check_id : null,
      label: request.label,
      applied_to: applied,
    };
    options.usage?.recordFeedback(meta.clientId, { at: new Date().toISOString(), ...result });
    if (result.check_id !== null) options.onReported?.(meta.clientId, result.check_id, result.label);
    return result;
  };
}

/**
 * Reports for the client `clientId`: `POST /api/v1/spam/feedback` for the calling client, `POST
 * /api/v1/admin/clients/{id}/feedback` for the console, which reports as the client (the same learning,
 * counts, review item and webhook event). Docs/design.md, Learning from reports: validated here, then handed
 * to the detector(s) concerned (`POST /v1/feedback` with the client's id), which learn from it at once.
 * Hybrid check ids are resolved to their parts from `hybrids`. Each accepted report is counted once in the
 * client's stats (`usage`). A body with `reports` is many reports by check id, each applied or refused on its
 * own (./feedback-reports.ts).
 */
export function feedback(
  options: FeedbackOptions,
): (req: Request, res: Response, clientId: string) => Promise<void> {
  const schemas = createFeedbackSchemas(options.limits);
  const apply = reportApplier(options);
  const many = feedbackReports(schemas.byCheck, apply);
  return async (req, res, clientId) => {
    if (typeof req.body === 'object' && req.body !== null && 'reports' in req.body)
      return many(req, res, clientId);
    const context = requestContext(res);
    const meta = { requestId: context.requestId, language: context.language, clientId };
    const request = parseBody(schemas.formOf(req.body), req.body, context.language);
    const applied = await apply(request, meta);
    const result: FeedbackResult = Object.assign(applied, { request_id: context.requestId });
    res.json(result);
  };
}
