import { createRequestSchemas, type CheckLimits, type Language } from '@spam-check/contracts';
import { createRpcServer, type RpcServer } from '@spam-check/amqp-rpc';
import { rpcCheckHandler, type Logger } from '@spam-check/service-kit';
import { checkEmail } from '../../domain/check-email';
import type { EmailChecker } from '../../email-check-deps';

export interface RpcConsumerOptions {
  url: string;
  queue: string;
  logger: Logger;
  languages: readonly Language[];
  defaultLanguage: Language;
  limits: CheckLimits;
  checker: EmailChecker;
}

/** The RPC entry point: the same request body, domain function and problems as `POST /v1/check`. */
export function startRpcConsumer(options: RpcConsumerOptions): RpcServer {
  return createRpcServer({
    url: options.url,
    queue: options.queue,
    logger: options.logger,
    handler: rpcCheckHandler({
      schema: createRequestSchemas(options.limits).mail,
      languages: options.languages,
      defaultLanguage: options.defaultLanguage,
      check: async ({ email }, context) => {
        const client = await options.checker.clientSettings(context.clientId);
        const result = await checkEmail({ email, ...context, client }, options.checker.deps);
        options.checker.checks.inc({ verdict: result.verdict, entry_point: 'rpc' });
        return result;
      },
    }),
  });
}
