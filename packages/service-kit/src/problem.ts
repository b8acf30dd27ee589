import {
  PROBLEM_CONTENT_TYPE,
  errorMessages,
  errorStatus,
  problemType,
  type ErrorCode,
  type Language,
  type Problem,
} from '@spam-check/contracts';
import type { Response } from 'express';
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

export function sendProblem(res: Response, problem: Problem, headers: Record<string, string> = {}): void {
  if (problem.status === 503 && !headers['Retry-After']) headers['Retry-After'] = '5';
  res.status(problem.status).set(headers).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(problem));
}
