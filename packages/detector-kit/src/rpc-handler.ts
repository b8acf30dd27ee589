import { DETECTOR_RPC_HEADERS, type Language, type Problem } from '@spam-check/contracts';
import type { z } from 'zod';
import { buildProblem, isAppError, parseBody, pickLanguage, requestIdOf } from '@spam-check/service-kit';
import { withDuration } from './check-routes';

/** Thrown towards the RPC library, which replies `{ok: false, problem}` for errors carrying a `problem`. */
class RpcProblemError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.code);
    this.name = 'RpcProblemError';
  }
}

export interface RpcCheckContext {
  requestId: string;
  language: Language;
  /** The calling client as the gateway forwards it (`x-client-id`); undefined when absent. */
  clientId: string | undefined;
}

/**
 * Adapts a domain check to an RPC handler, as `createServiceApp` does for HTTP: the same body schema, request
 * id, language and client (the AMQP headers of `DETECTOR_RPC_HEADERS`), and the same problems for bad input or
 * an AppError. The result gets `duration_ms` like the HTTP answer; its type is the queue's result schema
 * (`createDetectorRpcSchemas` in contracts), the one the gateway validates replies with.
 */
export function rpcCheckHandler<Q extends { request: z.ZodType; result: z.ZodType }>(options: {
  schemas: Q;
  languages: readonly Language[];
  defaultLanguage: Language;
  check: (
    body: z.output<Q['request']>,
    context: RpcCheckContext,
  ) => Promise<Omit<z.input<Q['result']>, 'duration_ms'>>;
}): (
  payload: unknown,
  headers: Record<string, string>,
) => Promise<Omit<z.input<Q['result']>, 'duration_ms'> & { duration_ms: number }> {
  return async (payload, headers) => {
    const startedAt = process.hrtime.bigint();
    const context = {
      requestId: requestIdOf(headers[DETECTOR_RPC_HEADERS.requestId]),
      language: pickLanguage(
        headers[DETECTOR_RPC_HEADERS.language],
        options.languages,
        options.defaultLanguage,
      ),
      clientId: headers[DETECTOR_RPC_HEADERS.clientId] || undefined,
    };
    try {
      const request = parseBody<Q['request']>(options.schemas.request, payload, context.language);
      const result = await options.check(request, context);
      return withDuration(result, Math.round(Number(process.hrtime.bigint() - startedAt) / 1e5) / 10);
    } catch (error) {
      if (!isAppError(error)) throw error;
      throw new RpcProblemError(buildProblem(error.code, context.language, context.requestId, error.errors));
    }
  };
}
