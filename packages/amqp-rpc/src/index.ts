/**
 * AMQP RPC over RabbitMQ (amqplib): an exclusive reply queue per connection, correlation ids, per-call timeout also set as message
 * expiration, consumers with prefetch and acks, reconnection. See README.md.
 */
export { createRpcClient } from './client';
export { createRpcServer } from './server';
export { RpcTimeoutError, RpcUnavailableError, RpcNoConsumerError, RpcRemoteError } from './errors';
export type { RpcClient, RpcClientOptions, RpcServer } from './types';
export { createManagedConnection } from './connection';
export { rpcQueueName, type RpcQueueType } from './queue-type';
