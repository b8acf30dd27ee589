import { createDetectorRpcSchemas, type CheckLimits, type Language } from '@spam-check/contracts';
import { createRpcServer, type RpcQueueType, type RpcServer } from '@spam-check/amqp-rpc';
import { rpcCheckHandler } from '@spam-check/detector-kit';
import type { Logger } from '@spam-check/service-kit';
import type { CheckClientEmail } from '../../domain/check-for-client';

export interface RpcConsumerOptions {
  /** The brokers of AMQP_URL, tried in turn. */
  url: readonly string[];
  queue: string;
  queueType: RpcQueueType;
  logger: Logger;
  languages: readonly Language[];
  defaultLanguage: Language;
  limits: CheckLimits;
  checker: { checkEmail: CheckClientEmail };
}

/** The RPC entry point: the same request body, domain function and problems as `POST /v1/check`. */
export function startRpcConsumer(options: RpcConsumerOptions): RpcServer {
  return createRpcServer({
    url: options.url,
    queue: options.queue,
    queueType: options.queueType,
    logger: options.logger,
    handler: rpcCheckHandler({
      schemas: createDetectorRpcSchemas(options.limits).email,
      languages: options.languages,
      defaultLanguage: options.defaultLanguage,
      check: ({ email, context: form }, context) =>
        options.checker.checkEmail({ email, context: form, ...context }, 'rpc'),
    }),
  });
}
