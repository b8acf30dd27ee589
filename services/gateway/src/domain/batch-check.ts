import type {
  BatchItemError,
  ErrorCode,
  Language,
  MailCheckRequest,
  MailResult,
  TextCheckRequest,
  TextResult,
} from '@spam-check/contracts';
import { safeParseIn } from '@spam-check/contracts';
import { buildProblem, type FieldError } from '@spam-check/service-kit';
import type { z } from 'zod';
import type { CallMeta } from './hybrid-check';

/** How batches reach the detectors: all the valid items of a batch in one call per detector, in order. */
export interface BatchTransport {
  checkMails(items: MailCheckRequest[], meta: CallMeta): Promise<MailResult[]>;
  checkTexts(items: TextCheckRequest[], meta: CallMeta): Promise<TextResult[]>;
}

/** The items of a batch the detector is asked about, and the per-item refusals of the others. */
export interface BatchPlan<T> {
  checked: { index: number; item: T }[];
  refused: Map<number, { code: ErrorCode; errors?: FieldError[] }>;
}

/**
 * Sorts the items of a batch (docs/design.md, Batch checks). The rules:
 * - only the first `granted` items fit in the rate limit; the others are refused with RATE_LIMITED;
 * - of those, an item that fails its schema is refused with VALIDATION_FAILED, its field errors under
 *   `<field>.<index>` (the path in the request body);
 * - every other item is checked.
 */
export function planBatch<S extends z.ZodType>(
  items: readonly unknown[],
  schema: S,
  granted: number,
  field: string,
  language: Language,
): BatchPlan<z.output<S>> {
  const plan: BatchPlan<z.output<S>> = { checked: [], refused: new Map() };
  items.forEach((item, index) => {
    if (index >= granted) return plan.refused.set(index, { code: 'RATE_LIMITED' });
    const parsed = safeParseIn(schema, item, language);
    if (parsed.success) return plan.checked.push({ index, item: parsed.data });
    plan.refused.set(index, {
      code: 'VALIDATION_FAILED',
      errors: parsed.error.issues.map((issue) => ({
        path: [field, index, ...issue.path].join('.'),
        message: issue.message,
      })),
    });
  });
  return plan;
}

/** The batch's results in request order: the detector's result of each checked item, a problem for the rest. */
export function assembleResults<R>(
  count: number,
  plan: BatchPlan<unknown>,
  checked: readonly R[],
  meta: { language: Language; requestId: string },
): (R | BatchItemError)[] {
  const results = new Array<R | BatchItemError>(count);
  plan.checked.forEach(({ index }, position) => {
    results[index] = checked[position] as R;
  });
  for (const [index, { code, errors }] of plan.refused)
    results[index] = { error: buildProblem(code, meta.language, meta.requestId, errors) };
  return results;
}
