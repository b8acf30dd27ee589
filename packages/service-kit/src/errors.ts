import type { ErrorCode } from '@spam-check/contracts';

export interface FieldError {
  path: string;
  message: string;
}

/**
 * The one error type services throw. The domain throws it with a catalogue code; the HTTP mapping lives in
 * the kit's error handler. `cause` and `internal` are logged, never sent.
 */
export class AppError extends Error {
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string>;
  readonly internal: string | undefined;

  constructor(
    readonly code: ErrorCode,
    options: {
      errors?: FieldError[];
      headers?: Record<string, string>;
      internal?: string;
      cause?: unknown;
    } = {},
  ) {
    super(options.internal ?? code, { cause: options.cause });
    this.name = 'AppError';
    this.errors = options.errors;
    this.headers = options.headers ?? {};
    this.internal = options.internal;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
