import { randomUUID } from 'node:crypto';
import {
  STEP_BY_STEP_HEADER,
  parseStepByStepHeader,
  type HybridCheckRequest,
  type HybridResult,
} from '@spam-check/contracts';
import { AppError, elapsedMs, requestContext, type CheckMemory } from '@spam-check/service-kit';
import type { RequestHandler } from 'express';
import { runHybridCheck, type DetectorTransport } from '../../domain/hybrid-check';
import { callerOf } from './authenticate';

/**
 * `POST /api/v1/spam/hybrid-check`: `X-Internal-Step-By-Step` picks the mode (DESIGN.md §2.3); parallel
 * runs over HTTP, step-by-step over RabbitMQ RPC when configured (else over HTTP, one after the other).
 * The ids of the parts are kept under the hybrid id in `hybrids`, for feedback on the hybrid id.
 */
export function hybridCheck(
  transports: { parallel: DetectorTransport; stepByStep: DetectorTransport },
  hybrids: CheckMemory,
): RequestHandler {
  return (req, res, next) => {
    const header = req.headers[STEP_BY_STEP_HEADER];
    const stepByStep = parseStepByStepHeader(Array.isArray(header) ? header.join(',') : header);
    if (stepByStep === 'invalid')
      return next(
        new AppError('INVALID_HEADER', {
          errors: [{ path: 'X-Internal-Step-By-Step', message: 'expected true/1/yes/on or false/0/no/off' }],
        }),
      );
    const context = requestContext(res);
    const request = req.body as HybridCheckRequest;
    const mode = stepByStep ? 'step_by_step' : 'parallel';
    const meta = {
      requestId: context.requestId,
      language: context.language,
      clientId: callerOf(res).clientId,
    };
    runHybridCheck(request, mode, stepByStep ? transports.stepByStep : transports.parallel, meta)
      .then(async (verdict) => {
        const id = randomUUID();
        const parts = { email: verdict.email.id, text: verdict.text?.id ?? null };
        await hybrids.remember(meta.clientId, id, JSON.stringify(parts)).catch((error: unknown) => {
          throw new AppError('SERVICE_UNAVAILABLE', {
            cause: error,
            internal: 'hybrid check store unavailable',
          });
        });
        const result: HybridResult = {
          id,
          ...verdict,
          request_id: context.requestId,
          duration_ms: elapsedMs(context),
        };
        res.json(result);
      })
      .catch(next);
  };
}
