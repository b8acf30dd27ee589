import {
  errorMessages,
  errorStatus,
  problemType,
  type ErrorCode,
  type Language,
  type Problem,
} from '@spam-check/contracts';
import type { FieldError } from './errors';

export function buildProblem(
  code: ErrorCode,
  language: Language,
  requestId: string,
  errors?: FieldError[],
): Problem {
  const { title, detail } = errorMessages(code, language);
  return {
    type: problemType(code),
    title,
    status: errorStatus(code),
    detail,
    code,
    request_id: requestId,
    ...(errors && errors.length > 0 ? { errors } : {}),
  };
}
