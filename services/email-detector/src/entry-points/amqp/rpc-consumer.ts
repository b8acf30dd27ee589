import { randomUUID } from 'node:crypto';
import { requestSchemas, type Language, type Problem } from '@spam-check/contracts';
import { createRpcServer, type RpcServer } from '@spam-check/amqp-rpc';
import { AppError, buildProblem, parseBody, pickLanguage, type Logger } from '@spam-check/service-kit';
import { checkEmail } from '../../domain/check-email';
import type { EmailChecker } from '../../email-check-deps';

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
  logger: Logger;
  languages: readonly Language[];
  defaultLanguage: Language;
  checker: EmailChecker;
}

/**
 * The RPC entry point: the same request body and domain function as `POST /v1/check`; AMQP headers carry
 * `x-request-id` and `accept-language`. A bad body is answered with the VALIDATION_FAILED problem HTTP gives.
 */
export function startRpcConsumer(options: RpcConsumerOptions): RpcServer {
  return createRpcServer({
    url: options.url,
    queue: options.queue,
    logger: options.logger,
    handler: async (payload, headers) => {
      const startedAt = process.hrtime.bigint();
      const requestId = REQUEST_ID.test(headers['x-request-id'] ?? '')
        ? headers['x-request-id']!
        : randomUUID();
      const language = pickLanguage(headers['accept-language'], options.languages, options.defaultLanguage);
      let email: string;
      try {
        ({ email } = parseBody(requestSchemas.mail, payload));
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        throw new RpcProblemError(buildProblem(error.code, language, requestId, error.errors));
      }
      const result = await checkEmail({ email, language, requestId }, options.checker.deps);
      options.checker.checks.inc({ verdict: result.verdict, entry_point: 'rpc' });
      const durationMs = Math.round(Number(process.hrtime.bigint() - startedAt) / 1e5) / 10;
      return { ...result, duration_ms: durationMs };
    },
  });
}
