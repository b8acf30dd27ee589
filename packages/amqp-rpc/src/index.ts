/**
 * AMQP RPC over RabbitMQ (amqplib): direct reply-to, correlation ids, per-call timeout also set as message
 * expiration, consumers with prefetch and acks, reconnection. The implementation is issue #4's work; this file
 * fixes the public API that the gateway and the detectors build against.
 */
import type { Logger } from 'pino';

export interface RpcCallOptions {
  timeoutMs: number;
  /** Carried as AMQP headers: request id, language, client id. */
  headers?: Record<string, string>;
}

export interface RpcClient {
  /** Resolves with the handler's reply; rejects with RpcTimeoutError or RpcUnavailableError. */
  call<T = unknown>(queue: string, payload: unknown, options: RpcCallOptions): Promise<T>;
  ready(): Promise<void>;
  close(): Promise<void>;
}

export interface RpcServerOptions {
  url: string;
  queue: string;
  prefetch?: number;
  logger: Logger;
  handler: (payload: unknown, headers: Record<string, string>) => Promise<unknown>;
}

export interface RpcServer {
  ready(): Promise<void>;
  close(): Promise<void>;
}

export class RpcTimeoutError extends Error {
  override name = 'RpcTimeoutError';
}
export class RpcUnavailableError extends Error {
  override name = 'RpcUnavailableError';
}

/** Queue names of the detectors' RPC consumers. */
export const RPC_QUEUES = {
  email: 'spam-check.email-detector.check',
  text: 'spam-check.text-detector.check',
} as const;

export declare function createRpcClient(options: { url: string; logger: Logger }): RpcClient;
export declare function createRpcServer(options: RpcServerOptions): RpcServer;
