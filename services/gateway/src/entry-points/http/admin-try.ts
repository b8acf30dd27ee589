import { randomUUID } from 'node:crypto';
import { createRequestSchemas, type CheckLimits } from '@spam-check/contracts';
import type { ClientSettingsStore } from '@spam-check/client-settings';
import { AppError, elapsedMs, parseBody, requestContext } from '@spam-check/service-kit';
import type { Request, Response } from 'express';
import { runHybridCheck, type CallMeta, type DetectorTransport } from '../../domain/hybrid-check';

export interface TrialDeps {
  limits: CheckLimits;
  transports: { parallel: DetectorTransport; stepByStep: DetectorTransport };
  settings: ClientSettingsStore | undefined;
}

const KINDS = ['mail', 'text', 'hybrid'] as const;
type Kind = (typeof KINDS)[number];

/**
 * `POST /api/v1/admin/clients/{id}/try/{mail|text|hybrid}`: a check run as the client `id` (its id travels to
 * the detectors as `X-Client-Id`, so its settings and reports apply), over the same transports and with the
 * same request schemas as the public checks; the operator console's "try it". A hybrid check takes the
 * client's `hybrid.step_by_step` setting, as the API does without the header. Trials are not counted in the
 * client's usage (they are not its traffic), and a hybrid trial is not kept for feedback.
 */
export function trialCheck(deps: TrialDeps) {
  const schemas = createRequestSchemas(deps.limits);
  const run = async (kind: Kind, body: unknown, meta: CallMeta) => {
    switch (kind) {
      case 'mail':
        return deps.transports.parallel.checkMail(parseBody(schemas.mail, body, meta.language), meta);
      case 'text':
        return deps.transports.parallel.checkText(parseBody(schemas.text, body, meta.language), meta);
      case 'hybrid': {
        const request = parseBody(schemas.hybrid, body, meta.language);
        const stepByStep = (await deps.settings?.get(meta.clientId))?.hybrid?.step_by_step ?? false;
        const mode = stepByStep ? 'step_by_step' : 'parallel';
        const transport = stepByStep ? deps.transports.stepByStep : deps.transports.parallel;
        return { id: randomUUID(), ...(await runHybridCheck(request, mode, transport, meta)) };
      }
    }
  };
  return async (req: Request, res: Response, clientId: string): Promise<void> => {
    const kind = (req.params as { kind?: string }).kind as Kind;
    if (!KINDS.includes(kind)) throw new AppError('NOT_FOUND');
    const context = requestContext(res);
    const meta = { requestId: context.requestId, language: context.language, clientId };
    const result = await run(kind, req.body, meta);
    const answer =
      kind === 'hybrid'
        ? { ...result, request_id: context.requestId, duration_ms: elapsedMs(context) }
        : result;
    res.set({ 'Cache-Control': 'no-store' }).json(answer);
  };
}
