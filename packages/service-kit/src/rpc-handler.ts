import type { Language, Problem } from '@spam-check/contracts';
import type { z } from 'zod';
import { isAppError } from './errors';
import { pickLanguage } from './language';
import { buildProblem } from './problem';
import { requestIdOf } from './request-id';
import { parseBody } from './validate';

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
 * id, language and client (AMQP headers `x-request-id`, `accept-language`, `x-client-id`), and the same problems for bad input or
 * an AppError. The result gets `duration_ms` like the HTTP answer.
 */
export function rpcCheckHandler<S extends z.ZodType, R extends object>(options: {
  schema: S;
  languages: readonly Language[];
  defaultLanguage: Language;
  check: (body: z.output<S>, context: RpcCheckContext) => Promise<R>;
}): (payload: unknown, headers: Record<string, string>) => Promise<R & { duration_ms: number }> {
  return async (payload, headers) => {
    const startedAt = process.hrtime.bigint();
    const context = {
      requestId: requestIdOf(headers['x-request-id']),
      language: pickLanguage(headers['accept-language'], options.languages, options.defaultLanguage),
      clientId: headers['x-client-id'] || undefined,
    };
    try {
      const result = await options.check(parseBody(options.schema, payload), context);
      return { ...result, duration_ms: Math.round(Number(process.hrtime.bigint() - startedAt) / 1e5) / 10 };
    } catch (error) {
      if (!isAppError(error)) throw error;
      throw new RpcProblemError(buildProblem(error.code, context.language, context.requestId, error.errors));
    }
  };
}
