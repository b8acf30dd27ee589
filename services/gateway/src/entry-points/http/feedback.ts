import { randomUUID } from 'node:crypto';
import {
  createFeedbackSchemas,
  detectorFeedbackAnswerSchema,
  type CheckLimits,
  type FeedbackPart,
  type FeedbackResult,
} from '@spam-check/contracts';
import type { CheckMemory } from '@spam-check/client-state';
import { AppError, isAppError, parseBody, requestContext } from '@spam-check/service-kit';
import type { RequestHandler } from 'express';
import { callDetector, type HttpDetector } from '../../data-access/detector-client';
import type { UsageStore } from '../../data-access/usage-store';
import { routeFeedback, type HybridParts } from '../../domain/feedback';
import { callerOf } from './authenticate';

/**
 * `POST /api/v1/spam/feedback` (docs/design.md, Learning from reports): validated here, then handed to the
 * detector(s) concerned (`POST /v1/feedback` with the caller's client id), which learn from it at once.
 * Hybrid check ids are resolved to their parts from `hybrids`. Each accepted report is counted once in the
 * client's stats (`usage`).
 */
export function feedback(options: {
  detectors: Record<FeedbackPart, HttpDetector>;
  hybrids: CheckMemory;
  usage?: UsageStore | undefined;
  limits: CheckLimits;
  timeoutMs: number;
}): RequestHandler {
  const schemas = createFeedbackSchemas(options.limits);
  return async (req, res) => {
    const context = requestContext(res);
    const clientId = callerOf(res).clientId;
    const meta = { requestId: context.requestId, language: context.language, clientId };
    const send = async (part: FeedbackPart, body: object): Promise<boolean> => {
      try {
        await callDetector(options.detectors[part], {
          path: '/v1/feedback',
          schema: detectorFeedbackAnswerSchema,
          body: { json: body },
          meta,
          timeoutMs: options.timeoutMs,
        });
        return true;
      } catch (error) {
        if (isAppError(error) && error.code === 'CHECK_NOT_FOUND') return false;
        throw error;
      }
    };
    const hybridParts = async (checkId: string) => {
      const record = await options.hybrids.recall(clientId, checkId).catch((error: unknown) => {
        throw new AppError('SERVICE_UNAVAILABLE', {
          cause: error,
          internal: 'hybrid check store unavailable',
        });
      });
      return record === undefined ? undefined : (JSON.parse(record) as HybridParts);
    };
    const request = parseBody(schemas.formOf(req.body), req.body, requestContext(res).language);
    const applied = await routeFeedback(request, hybridParts, send, (part) =>
      options.detectors[part].isDown(),
    );
    const result: FeedbackResult = {
      id: randomUUID(),
      check_id: 'check_id' in request ? request.check_id : null,
      label: request.label,
      applied_to: applied,
      request_id: context.requestId,
    };
    res.json(result);
    options.usage?.recordFeedback(clientId, {
      at: new Date().toISOString(),
      id: result.id,
      check_id: result.check_id,
      label: result.label,
      applied_to: result.applied_to,
    });
  };
}
