import { Cluster, Redis, type RedisOptions } from 'ioredis';
import { boundedClients } from './redis-deadline';
import { describeRedisTarget, type RedisTarget } from './redis-target';
import type { Closer } from './serve';

/** One node or Sentinel's master (a `Redis`), or a Redis Cluster: the stores take either. */
export type RedisClient = Redis | Cluster;

/** The part of a logger a connection uses (a pino logger, or a CLI's stderr). */
export interface RedisLogger {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

export interface RedisConnectionOptions {
  target: RedisTarget;
  /** Names the connection in logs and in its closer: `redis`, `redis subscriber`, ... */
  name: string;
  logger: RedisLogger;
  /** Upper bound for each command (unless `subscriber`). Default 1000 ms. */
  timeoutMs?: number;
  /** Upper bound for each connection attempt. Default 2000 ms. */
  connectTimeoutMs?: number;
  /** A connection for SUBSCRIBE: no command timeout (it waits for messages as long as it lives). */
  subscriber?: boolean;
}

export interface RedisConnection {
  client: RedisClient;
  /** For readiness: a PING answered within the command timeout. */
  check: () => Promise<void>;
  /** QUIT when connected (what was sent is answered first), then drop every socket. */
  closer: Closer;
}

const REDIS_TIMEOUT_MS = 1000;
const REDIS_CONNECT_TIMEOUT_MS = 2000;

const CLUSTER_SLOTS_REFRESH_MS = 1000;

const retryDelay = (attempt: number) => Math.min(attempt * 100, 1000);

/** The client classes to build with: ioredis's own, or ones that bound each command (`boundedClients`). */
interface ClientClasses {
  Redis: typeof Redis;
  Cluster: typeof Cluster;
}

function createClient(target: RedisTarget, options: RedisOptions, classes: ClientClasses): RedisClient {
  if (target.kind === 'single') return new classes.Redis(target.url, options);
  if (target.kind === 'sentinel')
    return new classes.Redis({
      ...options,
      ...(target.password === undefined ? {} : { password: target.password }),
      sentinels: target.sentinels,
      name: target.name,
      ...(target.sentinelPassword === undefined ? {} : { sentinelPassword: target.sentinelPassword }),
      sentinelRetryStrategy: retryDelay,
      // A stalled sentinel is skipped for the next one after the connection bound, not waited for.
      sentinelCommandTimeout: options.connectTimeout,
      // The first sentinel that announces +switch-master ends the connection, and the reconnection asks them
      // for the new master: no write reaches a demoted master that stays up. A write it refuses as READONLY
      // (the announcement missed) ends the connection too.
      failoverDetector: true,
      reconnectOnError: (error: Error) => error.message.startsWith('READONLY'),
    });
  // A cluster's own offline queue and retries would hide a failover from the caller and hold its answer
  // (ioredis retries a command on a closed connection or CLUSTERDOWN up to 16 times, a command possibly run
  // twice): all stay off, and a moved slot is followed (MOVED/ASK) as the protocol requires. Without those
  // retries nothing else asks for the slot map after a master is lost, so the client asks every second: a
  // promoted replica is used within a second of the cluster naming it.
  return new classes.Cluster(target.nodes, {
    enableOfflineQueue: false,
    enableAutoPipelining: options.enableAutoPipelining ?? false,
    retryDelayOnFailover: 0,
    retryDelayOnClusterDown: 0,
    slotsRefreshInterval: CLUSTER_SLOTS_REFRESH_MS,
    clusterRetryStrategy: retryDelay,
    redisOptions: {
      ...options,
      ...(target.password === undefined ? {} : { password: target.password }),
      enableAutoPipelining: false,
    },
  });
}

/**
 * A Redis client as every service uses one, on any of the three topologies (`RedisTarget`). Fail fast, recover by itself:
 * - a command is never queued while disconnected, nor retried on a new connection: it fails at once and the
 *   caller answers 503 (a queued command would answer late, a retried one might run twice);
 * - every command is bounded by `timeoutMs`, every connection attempt by `connectTimeoutMs` (a hung Redis is
 *   down, not slow); an answer that arrived while the event loop was stalled still counts (`boundedClients`);
 * - it reconnects in the background, after 100 ms, then up to every second;
 * - the commands issued in one event loop turn leave in one write (auto-pipelining); each keeps its own
 *   reply, timeout and failure;
 * - an outage is logged once at warn when it starts and once at info when it ends, not at every retry.
 * Resolves once the first connection is ready or has failed (then the service starts unready, answers 503
 * where it needs Redis, and recovers when Redis does); it never rejects.
 */
export async function connectRedis(options: RedisConnectionOptions): Promise<RedisConnection> {
  const { name, logger } = options;
  const timeoutMs = options.timeoutMs ?? REDIS_TIMEOUT_MS;
  const connectTimeoutMs = options.connectTimeoutMs ?? REDIS_CONNECT_TIMEOUT_MS;
  const where = describeRedisTarget(options.target);
  const client = createClient(
    options.target,
    {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: connectTimeoutMs,
      ...(options.subscriber ? {} : { enableAutoPipelining: true }),
      retryStrategy: retryDelay,
    },
    options.subscriber ? { Redis, Cluster } : boundedClients(timeoutMs),
  );
  let down = false;
  let closing = false;
  let lastError: Error | undefined;
  client.on('error', (error: Error) => (lastError = error));
  client.on('reconnecting', () => {
    if (down) return;
    down = true;
    logger.warn({ err: lastError, client: name, redis: where }, 'redis connection lost; reconnecting');
  });
  // Only our closer may end a connection. ioredis ends a Sentinel client for good when its failover detector
  // hears +switch-master while the client is between connections ("Connection is closed." ever after).
  client.on('end', () => {
    if (closing) return;
    logger.warn(
      { client: name, redis: where },
      'redis connection ended by the client library; connecting again',
    );
    setTimeout(() => {
      if (!closing) client.connect().catch(() => undefined);
    }, retryDelay(1));
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    logger.info({ client: name, redis: where }, 'redis connection restored');
  });
  // Also bounded when the socket connects but Redis never answers its ready check (a stopped process).
  await new Promise<void>((resolve) => {
    const settle = () => {
      clearTimeout(timer);
      client.off('ready', settle);
      client.off('reconnecting', settle);
      resolve();
    };
    const timer = setTimeout(settle, connectTimeoutMs + timeoutMs);
    client.once('ready', settle);
    client.once('reconnecting', settle);
  });
  return {
    client,
    check: async () => void (await client.ping()),
    closer: {
      name,
      close: async () => {
        closing = true;
        if (client.status === 'ready') await client.quit().catch(() => undefined);
        // After QUIT too: a Sentinel client's failover detector keeps a subscriber connection to each
        // sentinel, which only `disconnect` ends; when not ready, it stops a planned reconnection.
        client.disconnect();
      },
    },
  };
}
