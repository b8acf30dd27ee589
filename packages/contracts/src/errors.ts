import errors from './errors.json';
import type { Language, Messages } from './languages';

interface ErrorEntry {
  status: number;
  title: Messages;
  detail: Messages;
}

/**
 * The closed catalogue of problem codes (RFC 9457 `code` extension). A code is stable once published:
 * clients branch on it, humans read `detail`. The entries are data (`errors.json`); `satisfies` refuses one
 * without a status or a language.
 */
export const ERROR_CATALOGUE = errors satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;
export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

export function errorStatus(code: ErrorCode): number {
  return ERROR_CATALOGUE[code].status;
}

/** The problem `type` URI: points into the API reference served by the gateway. */
export function problemType(code: ErrorCode): string {
  return `/docs#error-${code}`;
}

export function errorMessages(code: ErrorCode, language: Language): { title: string; detail: string } {
  const entry = ERROR_CATALOGUE[code];
  return { title: entry.title[language], detail: entry.detail[language] };
}
