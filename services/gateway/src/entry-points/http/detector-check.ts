import type http from 'node:http';
import { readJsonBytes, requestContext, sendJson, type RequestContext } from '@spam-check/service-kit';
import type { RequestHandler } from 'express';
import type { z } from 'zod';
import { callDetector, type HttpDetector } from '../../data-access/detector-client';
import type { Caller } from '../../domain/authorization';

/**
 * `POST /api/v1/spam/mail` and `/text`, one of the kit's hot routes, since nearly every request of the API is
 * one of these. In order: the bearer token, the rate limit, the body (type, encoding,
 * size and UTF-8 checked by the kit, not parsed: the detector validates it), then the detector's `POST
 * /v1/check` through the one detector client, which forwards the body's bytes unchanged with the client's
 * `Content-Type` and end-to-end headers. A result of the right shape is passed on as the detector's bytes;
 * everything else is the client's problem (502, 503, 504, or the detector's own problem re-issued).
 */
export function detectorCheck<S extends z.ZodType>(options: {
  detector: HttpDetector;
  schema: S;
  timeoutMs: number;
  maxBodyBytes: number;
  authenticate: (req: http.IncomingMessage) => Promise<Caller>;
  rateLimit: (caller: Caller, res: http.ServerResponse) => Promise<void>;
  /** Called with each result passed on and the request's body (usage, review list); must not throw or wait. */
  onResult?: (caller: Caller, context: RequestContext, result: z.output<S>, body: Buffer) => void;
}): RequestHandler {
  return async (req, res) => {
    const context = requestContext(res);
    const caller = await options.authenticate(req);
    await options.rateLimit(caller, res);
    const bytes = await readJsonBytes(req, options.maxBodyBytes);
    const answer = await callDetector(options.detector, {
      path: '/v1/check',
      schema: options.schema,
      body: { bytes, from: req.headers },
      meta: { requestId: context.requestId, language: context.language, clientId: caller.clientId },
      timeoutMs: options.timeoutMs,
    });
    sendJson(res, 200, answer.bytes);
    options.onResult?.(caller, context, answer.result, bytes);
  };
}
