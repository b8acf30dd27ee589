import type { Logger } from 'pino';
import type { ReconnectOptions } from './connection';
import type { RpcQueueType } from './queue-type';

export interface RpcCallOptions {
  /** Time to wait for the reply; also sent as the message `expiration`, so the broker drops it unprocessed. */
  timeoutMs: number;
  /** Carried as AMQP headers: request id, language, client id. */
  headers?: Record<string, string>;
}

export interface RpcClient {
  /**
   * Resolves with the handler's result; rejects with RpcTimeoutError, RpcUnavailableError (RpcNoConsumerError
   * when nothing consumes the queue), or RpcRemoteError (the handler failed; its `problem` is attached).
   */
  call<T = unknown>(queue: string, payload: unknown, options: RpcCallOptions): Promise<T>;
  /** Resolves once connected; rejects with RpcUnavailableError if not connected within `readyTimeoutMs`. */
  ready(): Promise<void>;
  /** True while connected with a reply consumer in place (cheap, for readiness checks). */
  isConnected(): boolean;
  /** Rejects pending calls with RpcUnavailableError and closes the connection. */
  close(): Promise<void>;
}

/** Options shared by client and server. */
export interface RpcConnectionOptions {
  /**
   * One broker URL, or the nodes of a RabbitMQ cluster: tried in turn at start and at every reconnect, each
   * attempt going to the next broker after one that failed or dropped.
   */
  url: string | readonly string[];
  /**
   * The type of the RPC queues, `quorum` (default) or `classic`. Client and server must agree: a quorum queue
   * is named `<queue>.quorum`, a classic one `<queue>` (see `rpcQueueName`).
   */
  queueType?: RpcQueueType;
  logger: Logger;
  /** `connection_name` client property shown by RabbitMQ. Default `spam-check-rpc-<client|server>-<random>`. */
  connectionName?: string;
  /** Timeout of one connection attempt (TCP + AMQP handshake). Default 5000 ms. */
  connectTimeoutMs?: number;
  /** How long `ready()` waits for a connection before rejecting. Default 5000 ms. */
  readyTimeoutMs?: number;
  /** Backoff between reconnect attempts. Defaults 100 ms doubling up to 5000 ms. */
  reconnect?: ReconnectOptions;
  /**
   * AMQP heartbeat in seconds (default 5; 0 = none). A silent connection counts as lost after two to three
   * heartbeats. A `heartbeat` parameter in `url` wins, so operators set it in AMQP_URL.
   */
  heartbeatSeconds?: number;
}

export interface RpcClientOptions extends RpcConnectionOptions {
  /**
   * A call made while disconnected waits at most this long (and never beyond its own timeout) for the
   * reconnection, then rejects with RpcUnavailableError. Default 1000 ms; 0 fails at once.
   */
  reconnectWaitMs?: number;
  /**
   * How often the consumer count of a queue is checked (`queue.declare` passive) while calls to it are made or
   * pending. Default 1000 ms. A queue found without consumer fails its calls with RpcNoConsumerError.
   */
  probeIntervalMs?: number;
  /**
   * A check the broker leaves unanswered this long means the connection is dead (partition, frozen broker):
   * it is dropped, pending calls fail with RpcUnavailableError, and it reconnects. Default 2000 ms.
   */
  probeTimeoutMs?: number;
}

export interface RpcServerOptions extends RpcConnectionOptions {
  queue: string;
  /** Unacknowledged deliveries at a time = handlers running concurrently. Default 10. */
  prefetch?: number;
  /** How long `close()` waits for running handlers to reply before closing anyway. Default 10000 ms. */
  drainTimeoutMs?: number;
  handler: (payload: unknown, headers: Record<string, string>) => Promise<unknown>;
}

export interface RpcServer {
  /** Resolves once connected and consuming; rejects with RpcUnavailableError after `readyTimeoutMs`. */
  ready(): Promise<void>;
  /** True while connected and consuming (cheap, for readiness checks). */
  isConnected(): boolean;
  /** Stops consuming, waits for running handlers (bounded by `drainTimeoutMs`), closes the connection. */
  close(): Promise<void>;
}
