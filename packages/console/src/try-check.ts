import type { HybridResult, Reason, Verdict } from '@spam-check/contracts';
import { z } from 'zod';

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
 * The console's "try it" as a request of the admin API's trial check (`POST
 * /api/v1/admin/clients/{id}/try/{kind}`, run as the client being looked at, with its settings, and not
 * counted in its usage): only the fields of the chosen kind are sent; an empty subtitle is no subtitle.
 */
export function tryRequest(form: TryForm): { kind: TryForm['kind']; body: Record<string, unknown> } {
  const text = {
    title: form.title,
    body: form.body,
    ...(form.sub_title ? { sub_title: form.sub_title } : {}),
  };
  switch (form.kind) {
    case 'mail':
      return { kind: 'mail', body: { email: form.email } };
    case 'text':
      return { kind: 'text', body: text };
    case 'hybrid':
      return { kind: 'hybrid', body: { ...text, email: form.email } };
  }
}

/** What the page shows of a trial's answer: a hybrid check's reasons are its parts' reasons. */
export function tryResult(kind: TryForm['kind'], answer: unknown): TryResult {
  if (kind !== 'hybrid') return answer as TryResult;
  const result = answer as HybridResult;
  return { ...result, reasons: [...result.email.reasons, ...(result.text?.reasons ?? [])] };
}
