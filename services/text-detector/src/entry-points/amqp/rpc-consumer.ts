import { randomUUID } from 'node:crypto';
import { requestSchemas, type Language, type Problem } from '@spam-check/contracts';
import { createRpcServer, type RpcServer } from '@spam-check/amqp-rpc';
import { AppError, buildProblem, parseBody, pickLanguage, type Logger } from '@spam-check/service-kit';
import type { CheckText } from '../../domain/check-text';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Carries a problem back to the RPC caller (the library replies `{ok: false, problem}`). */
class RpcProblemError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.code);
  }
}

export interface RpcConsumerOptions {
  url: string;
  queue: string;
  prefetch: number;
  logger: Logger;
  languages: readonly Language[];
  defaultLanguage: Language;
  checkText: CheckText;
}

/**
 * The RPC entry point: the same request body and domain function as `POST /v1/check`; AMQP headers carry
 * `x-request-id` and `accept-language`. A bad body is answered with the VALIDATION_FAILED problem HTTP gives.
 */
export function startRpcConsumer(options: RpcConsumerOptions): RpcServer {
  return createRpcServer({
    url: options.url,
    queue: options.queue,
    prefetch: options.prefetch,
    logger: options.logger,
    handler: async (payload, headers) => {
      const startedAt = process.hrtime.bigint();
      const header = headers['x-request-id'];
      const requestId = header !== undefined && REQUEST_ID.test(header) ? header : randomUUID();
      const language = pickLanguage(headers['accept-language'], options.languages, options.defaultLanguage);
      let body: ReturnType<typeof parseBody<typeof requestSchemas.text>>;
      try {
        body = parseBody(requestSchemas.text, payload);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        throw new RpcProblemError(buildProblem(error.code, language, requestId, error.errors));
      }
      const result = await options.checkText({ ...body, language, requestId });
      const durationMs = Math.round(Number(process.hrtime.bigint() - startedAt) / 1e5) / 10;
      return { ...result, duration_ms: durationMs };
    },
  });
}
