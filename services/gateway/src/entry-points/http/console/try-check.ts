import { createRequestSchemas, type CheckLimits, type Reason, type Verdict } from '@spam-check/contracts';
import type { ClientSettingsStore } from '@spam-check/client-settings';
import { parseBody } from '@spam-check/service-kit';
import { z } from 'zod';
import { runHybridCheck, type CallMeta, type DetectorTransport } from '../../../domain/hybrid-check';

export const tryFormSchema = z.object({
  kind: z.enum(['mail', 'text', 'hybrid']),
  email: z.string().optional(),
  title: z.string().optional(),
  sub_title: z.string().optional(),
  body: z.string().optional(),
});
export type TryForm = z.infer<typeof tryFormSchema>;

export interface TryResult {
  verdict: Verdict;
  score: number;
  reasons: Reason[];
}

/**
 * The console's "try it": a mail, text or hybrid check run as the client being looked at (its id travels
 * to the detectors as `X-Client-Id`, so its settings and reports apply), over the same transports and with
 * the same request schemas as the public checks. Only the fields of the chosen kind are read; an empty
 * subtitle is no subtitle. A hybrid check takes the client's `hybrid.step_by_step` setting, as the API does
 * without the header. Trials are not counted in the client's usage: they are not its traffic.
 */
export async function tryCheck(
  form: TryForm,
  deps: {
    limits: CheckLimits;
    transports: { parallel: DetectorTransport; stepByStep: DetectorTransport };
    settings: ClientSettingsStore | undefined;
  },
  meta: CallMeta,
): Promise<TryResult> {
  const schemas = createRequestSchemas(deps.limits);
  const text = {
    title: form.title,
    body: form.body,
    ...(form.sub_title ? { sub_title: form.sub_title } : {}),
  };
  switch (form.kind) {
    case 'mail':
      return deps.transports.parallel.checkMail(
        parseBody(schemas.mail, { email: form.email }, meta.language),
        meta,
      );
    case 'text':
      return deps.transports.parallel.checkText(parseBody(schemas.text, text, meta.language), meta);
    case 'hybrid': {
      const request = parseBody(schemas.hybrid, { ...text, email: form.email }, meta.language);
      const stepByStep = (await deps.settings?.get(meta.clientId))?.hybrid?.step_by_step ?? false;
      const result = await runHybridCheck(
        request,
        stepByStep ? 'step_by_step' : 'parallel',
        stepByStep ? deps.transports.stepByStep : deps.transports.parallel,
        meta,
      );
      return { ...result, reasons: [...result.email.reasons, ...(result.text?.reasons ?? [])] };
    }
  }
}
