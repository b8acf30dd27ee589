import { detectorProblemSchema, errorStatus } from '@spam-check/contracts';
import { AppError } from '@spam-check/service-kit';
import type { z } from 'zod';

/**
 * What a detector's answer means for the caller. The rules:
 * - 200 with JSON of the result shape: the result;
 * - a problem (RFC 9457 body) with a 4xx, 503 or 504 status: the same problem, re-issued in the caller's
 *   language by the gateway (the detector's validation errors are kept, and its `Retry-After` when it is a
 *   number of seconds: a detector that refuses a client's report for now knows when there is room again);
 * - anything else (not JSON, wrong shape, other status, 500): BAD_DETECTOR_RESPONSE (502).
 * RPC replies follow the same rules.
 */
export function interpretHttpAnswer<S extends z.ZodType>(
  schema: S,
  { status, body, retryAfter }: { status: number; body: Buffer; retryAfter: string | undefined },
  detector: string,
): z.output<S> {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    throw badAnswer(detector, `status ${status}, body is not JSON`);
  }
  if (status === 200) {
    const result = schema.safeParse(json);
    if (result.success) return result.data;
    throw badAnswer(detector, `result does not match the schema: ${result.error.issues[0]?.message ?? ''}`);
  }
  throw problemOrBadAnswer(json, status, detector, retryAfter);
}

/** The result of an RPC call that succeeded: it must have the result shape too. */
export function interpretRpcResult<S extends z.ZodType>(
  schema: S,
  result: unknown,
  detector: string,
): z.output<S> {
  const parsed = schema.safeParse(result);
  if (parsed.success) return parsed.data;
  throw badAnswer(detector, `RPC result does not match the schema: ${parsed.error.issues[0]?.message ?? ''}`);
}

/** The problem of an RPC call whose handler failed (`{ok: false, problem}`), judged like an HTTP problem. */
export function interpretRpcProblem(problem: { status: number }, detector: string): AppError {
  return problemOrBadAnswer(problem, problem.status, detector);
}

/** `Retry-After` as delay-seconds (RFC 9110 §10.2.3), at most a day; an HTTP date or anything else is dropped. */
const RETRY_AFTER = /^[0-9]{1,5}$/;
const DAY_SECONDS = 86_400;

function problemOrBadAnswer(json: unknown, status: number, detector: string, retryAfter?: string): AppError {
  const problem = detectorProblemSchema.safeParse(json);
  const passes = status === 503 || status === 504 || (status >= 400 && status < 500);
  if (
    !problem.success ||
    !passes ||
    problem.data.status !== status ||
    errorStatus(problem.data.code) !== status
  )
    return badAnswer(detector, `status ${status} without a usable problem`);
  const kept = retryAfter !== undefined && RETRY_AFTER.test(retryAfter) && Number(retryAfter) <= DAY_SECONDS;
  return new AppError(problem.data.code, {
    ...(problem.data.errors ? { errors: problem.data.errors } : {}),
    ...(kept ? { headers: { 'Retry-After': retryAfter } } : {}),
    internal: `${detector} answered ${problem.data.code}`,
  });
}

function badAnswer(detector: string, why: string): AppError {
  return new AppError('BAD_DETECTOR_RESPONSE', { internal: `${detector}: ${why}` });
}
