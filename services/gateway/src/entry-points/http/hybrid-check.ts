import { STEP_BY_STEP_HEADER, parseStepByStepHeader, type HybridCheckRequest } from '@spam-check/contracts';
import type { ClientSettingsStore } from '@spam-check/client-settings';
import type { CheckMemory } from '@spam-check/client-state';
import { AppError, requestContext } from '@spam-check/service-kit';
import type { RequestHandler } from 'express';
import { hybridResultOf } from '../../data-access/hybrid-parts';
import type { ReviewRecorder } from '../../data-access/review-recorder';
import type { UsageStore } from '../../data-access/usage-store';
import { runHybridCheck, type DetectorTransport } from '../../domain/hybrid-check';
import { callerOf } from './authenticate';
import type { WebhookEvents } from './webhooks';

/**
 * `POST /api/v1/spam/hybrid-check`: `X-Internal-Step-By-Step` picks the mode (docs/design.md, Check
 * requests); without it (or empty) the client's `hybrid.step_by_step` setting does, else parallel. Parallel
 * runs over HTTP, step-by-step over RabbitMQ RPC when configured (else over HTTP, one after the other).
 * The ids of the parts are kept under the hybrid id in `hybrids`, for feedback on the hybrid id; the check
 * goes to the client's review list (`reviews`) and, as its review item, to the client's webhooks.
 */
export function hybridCheck(
  transports: { parallel: DetectorTransport; stepByStep: DetectorTransport },
  hybrids: CheckMemory,
  settings?: ClientSettingsStore,
  usage?: UsageStore,
  reviews?: ReviewRecorder,
  webhooks?: WebhookEvents,
): RequestHandler {
  return async (req, res, next) => {
    const raw = req.headers[STEP_BY_STEP_HEADER];
    const header = Array.isArray(raw) ? raw.join(',') : raw;
    const explicit = parseStepByStepHeader(header);
    if (explicit === 'invalid')
      return next(
        new AppError('INVALID_HEADER', {
          errors: [{ path: 'X-Internal-Step-By-Step', message: 'expected true/1/yes/on or false/0/no/off' }],
        }),
      );
    const context = requestContext(res);
    const request = req.body as HybridCheckRequest;
    const clientId = callerOf(res).clientId;
    const meta = { requestId: context.requestId, language: context.language, clientId };
    const stepByStep =
      header === undefined || header.trim() === ''
        ? ((await settings?.get(clientId))?.hybrid?.step_by_step ?? false)
        : explicit;
    const verdict = await runHybridCheck(
      request,
      stepByStep ? 'step_by_step' : 'parallel',
      stepByStep ? transports.stepByStep : transports.parallel,
      meta,
    );
    const result = await hybridResultOf(hybrids, meta.clientId, verdict, context);
    res.json(result);
    usage?.recordCheck({
      clientId,
      kind: 'hybrid',
      verdict: result.verdict,
      reasons: [...result.email.reasons, ...(result.text?.reasons ?? [])].map((reason) => reason.code),
      durationMs: result.duration_ms,
    });
    const checks = [{ checked: { kind: 'hybrid' as const, result }, submitted: request }];
    reviews?.record(clientId, checks);
    webhooks?.checked(clientId, checks);
  };
}
