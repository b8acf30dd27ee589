import { isSpamCheckError, type SpamCheckError } from '@spam-check/client';

/**
 * The exit codes of `spam-check` (documented in the README). Above 1 they follow BSD sysexits.h, so a
 * script can tell "try again later" (69, 75) from "fix something" (64, 65, 77).
 */
export const EXIT = {
  /** Done; a single check's verdict is ham or suspicious; every row of a file was checked. */
  OK: 0,
  /** A single check's verdict is spam. */
  SPAM: 1,
  /** A file was finished, but some rows could not be checked (their problem is in the output's error column). */
  ROWS_FAILED: 2,
  /** Wrong arguments or options. */
  USAGE: 64,
  /** The input cannot be used: a file that cannot be read, a CSV without the column. */
  DATA: 65,
  /** The API refused the request or answered something unexpected (a problem other than the ones below). */
  API: 70,
  /** The API or one of its dependencies is unreachable, or did not answer in time. */
  UNAVAILABLE: 69,
  /** Still rate limited after the retries. */
  RATE_LIMITED: 75,
  /** Not signed in, or the sign-in was refused: run `spam-check login`. */
  NOT_SIGNED_IN: 77,
} as const;

/** An error the command reports in one line, with its exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

const BY_CODE: Partial<Record<SpamCheckError['code'], number>> = {
  SIGN_IN_REQUIRED: EXIT.NOT_SIGNED_IN,
  invalid_grant: EXIT.NOT_SIGNED_IN,
  invalid_client: EXIT.NOT_SIGNED_IN,
  unauthorized_client: EXIT.NOT_SIGNED_IN,
  invalid_scope: EXIT.NOT_SIGNED_IN,
  UNAUTHORIZED: EXIT.NOT_SIGNED_IN,
  INVALID_TOKEN: EXIT.NOT_SIGNED_IN,
  INSUFFICIENT_SCOPE: EXIT.NOT_SIGNED_IN,
  RATE_LIMITED: EXIT.RATE_LIMITED,
  TIMEOUT: EXIT.UNAVAILABLE,
  NETWORK_ERROR: EXIT.UNAVAILABLE,
  SERVICE_UNAVAILABLE: EXIT.UNAVAILABLE,
  DETECTOR_TIMEOUT: EXIT.UNAVAILABLE,
  temporarily_unavailable: EXIT.UNAVAILABLE,
};

/** The exit code of an error: a CliError's own, else by the client error's code; anything else is API. */
export function exitCodeOf(error: unknown): number {
  if (error instanceof CliError) return error.exitCode;
  if (!isSpamCheckError(error)) return EXIT.API;
  return BY_CODE[error.code] ?? EXIT.API;
}
