import { safeParseIn, type Language } from '@spam-check/contracts';
import type { z } from 'zod';
import { AppError } from './errors';

/**
 * Parses a request body with a contract schema, or throws VALIDATION_FAILED listing every field, each with a
 * message in the request's language (`safeParseIn`).
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown, language: Language): z.output<S> {
  const result = safeParseIn(schema, body ?? undefined, language);
  if (result.success) return result.data;
  throw new AppError('VALIDATION_FAILED', {
    errors: result.error.issues.map((issue) => ({
      path: issue.path.length ? issue.path.join('.') : '(body)',
      message: issue.message,
    })),
  });
}
