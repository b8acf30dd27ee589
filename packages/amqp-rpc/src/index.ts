/**
 * AMQP RPC over RabbitMQ (amqplib): direct reply-to, correlation ids, per-call timeout also set as message
 * expiration, consumers with prefetch and acks, reconnection. See README.md.
 */
export { createRpcClient, DIRECT_REPLY_TO } from './client';
export { createRpcServer } from './server';
export { RpcTimeoutError, RpcUnavailableError, RpcNoConsumerError, RpcRemoteError } from './errors';
export type { RpcClient, RpcClientOptions, RpcServer } from './types';
export { createManagedConnection } from './connection';
export { rpcQueueName, type RpcQueueType } from './queue-type';
