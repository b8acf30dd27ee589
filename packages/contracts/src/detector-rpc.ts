import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from './errors';
import { createRequestSchemas, DEFAULT_CHECK_LIMITS, type CheckLimits } from './requests';
import { mailResultSchema, textResultSchema } from './results';

/**
 * The detectors' RPC queues (docs/design.md, Hybrid checks): the gateway calls, the detectors
 * consume. Each queue takes the same body as the detector's `POST /v1/check` and replies with its result.
 */
export const DETECTOR_RPC_QUEUES = {
  email: 'spam-check.email-detector.check',
  text: 'spam-check.text-detector.check',
} as const;

/** AMQP headers of a call: what `X-Request-Id`, `Accept-Language` and `X-Client-Id` carry over HTTP. */
export const DETECTOR_RPC_HEADERS = {
  requestId: 'x-request-id',
  language: 'accept-language',
  clientId: 'x-client-id',
} as const;

/**
 * Request and result of each queue. The consumer validates requests with the limits it is configured with;
 * the gateway validates every result before it uses it.
 */
export function createDetectorRpcSchemas(limits: CheckLimits = DEFAULT_CHECK_LIMITS) {
  const requests = createRequestSchemas(limits);
  return {
    email: { request: requests.mail, result: mailResultSchema },
    text: { request: requests.text, result: textResultSchema },
  };
}

/**
 * The part of a problem a detector reports (the body of an HTTP error answer, or the `problem` of a failed
 * RPC reply) that the gateway relies on; the detectors send the full problem, of which these fields are part.
 */
export const detectorProblemSchema = z.object({
  code: z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]),
  status: z.number().int(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type DetectorProblem = z.infer<typeof detectorProblemSchema>;
