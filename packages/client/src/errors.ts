import type { ErrorCode, OAuthError, OAuthErrorCode, Problem } from '@spam-check/contracts';

/** Failures that never reached an answer of the API. */
export type TransportErrorCode = 'TIMEOUT' | 'NETWORK_ERROR' | 'BAD_RESPONSE' | 'SIGN_IN_REQUIRED';

/**
 * The one error every call of the client throws (an `AbortSignal` the caller aborted still rejects with the
 * signal's reason, as `fetch` does). `code` is the problem's code (docs/design.md, Errors and problems), the
 * OAuth error of the token endpoint (RFC 6749 §5.2), or a transport code; `problem` is the problem document
 * as received.
 */
export class SpamCheckError extends Error {
  override readonly name = 'SpamCheckError';
  /** HTTP status, or 0 when there was no answer. */
  readonly status: number;
  readonly code: ErrorCode | OAuthErrorCode | TransportErrorCode;
  readonly problem: Problem | undefined;
  readonly oauthError: OAuthError | undefined;
  /** `X-Request-Id` of the failed exchange (sent by the client, echoed by the API). */
  readonly requestId: string | undefined;
  /** Seconds from `Retry-After`, when the answer had one. */
  readonly retryAfter: number | undefined;

  constructor(init: {
    message: string;
    status: number;
    code: SpamCheckError['code'];
    problem?: Problem;
    oauthError?: OAuthError;
    requestId?: string;
    retryAfter?: number;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.problem = init.problem;
    this.oauthError = init.oauthError;
    this.requestId = init.requestId;
    this.retryAfter = init.retryAfter;
  }
}

export function isSpamCheckError(error: unknown): error is SpamCheckError {
  return error instanceof SpamCheckError;
}
