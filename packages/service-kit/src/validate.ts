import type { z } from 'zod';
import { AppError } from './errors';

/** Parses a request body with a contract schema, or throws VALIDATION_FAILED listing every field. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body ?? undefined);
  if (result.success) return result.data;
  throw new AppError('VALIDATION_FAILED', {
    errors: result.error.issues.map((issue) => ({
      path: issue.path.length ? issue.path.join('.') : '(body)',
      message: issue.message,
    })),
  });
}
