import { connect, type ChannelModel } from 'amqplib';
import type { Logger } from 'pino';
import { RpcUnavailableError } from './errors';
import { within } from './within';

export interface ReconnectOptions {
  /** First delay after a drop or a failed attempt. Default 100 ms. */
  initialDelayMs?: number;
  /** Cap of the exponential backoff (x2 per failed attempt, +-20 % jitter). Default 5000 ms. */
  maxDelayMs?: number;
}

export interface ConnectionOptions {
  /** One broker, or the nodes of a cluster: tried in turn, at start and at every reconnect. */
  url: string | readonly string[];
  logger: Logger;
  /** Shown by RabbitMQ (`rabbitmqctl list_connections client_properties`, management UI). */
  connectionName: string;
  /** TCP + AMQP handshake timeout of one attempt. */
  connectTimeoutMs: number;
  /** Bound of one attempt's `setup`. Default 10,000 ms: far above a loaded broker's declares. */
  setupTimeoutMs?: number;
  /** AMQP heartbeat asked for, unless the URL has its own `heartbeat` parameter; 0 turns heartbeats off. */
  heartbeatSeconds: number;
  reconnect?: ReconnectOptions;
  /**
   * Runs on every new connection before it counts as connected (open channels, consume). If it throws, or has
   * not finished within `setupTimeoutMs` (a broker that took the connection and then stalled), the
   * connection is closed and the attempt retried.
   */
  setup: (model: ChannelModel) => Promise<void>;
}

export interface ManagedConnection {
  /** True once `setup` succeeded on the current connection, until it drops. */
  isConnected(): boolean;
  /** Resolves when connected; rejects with RpcUnavailableError after `waitMs` or when closed. */
  waitUntilConnected(waitMs: number): Promise<void>;
  /**
   * Drops `model` if it is still the current connection (its channel broke, or the broker stopped answering)
   * and reconnects at once; it does not wait for the old connection to close.
   */
  restart(model: ChannelModel, reason: string): void;
  close(): Promise<void>;
}

const JITTER = 0.2;
export const DEFAULT_HEARTBEAT_SECONDS = 5;
const DEFAULT_SETUP_TIMEOUT_MS = 10_000;

/** A broker as logs show it: host and port, never the credentials. */
function brokerOf(url: string): string {
  const { hostname, port, protocol } = new URL(url);
  return `${hostname}:${port || (protocol === 'amqps:' ? 5671 : 5672)}`;
}

/** The URL with `?heartbeat=` set, unless the operator's URL already says (amqplib reads it from there). */
function withHeartbeat(url: string, seconds: number): string {
  const parsed = new URL(url);
  if (parsed.searchParams.has('heartbeat')) return url;
  parsed.searchParams.set('heartbeat', String(seconds));
  return parsed.toString();
}

/**
 * The next attempt after a drop or a failed attempt: one pending at a time, after a wait doubling from
 * `initialDelayMs` per failed attempt, capped at `maxDelayMs`, with jitter.
 */
function retryScheduler(log: Logger, options: ReconnectOptions = {}) {
  const initialDelayMs = options.initialDelayMs ?? 100;
  const maxDelayMs = options.maxDelayMs ?? 5000;
  let attempt = 0;
  let timer: NodeJS.Timeout | undefined;
  return {
    attempt: () => attempt,
    pending: () => timer !== undefined,
    schedule(run: () => void): void {
      const base = Math.min(maxDelayMs / (1 + JITTER), initialDelayMs * 2 ** attempt);
      const delay = Math.round(base * (1 + JITTER * (2 * Math.random() - 1)));
      attempt += 1;
      log.debug({ attempt, delay }, 'AMQP reconnect scheduled');
      timer = setTimeout(() => {
        timer = undefined;
        run();
      }, delay);
    },
    succeeded(broker: string): void {
      if (attempt > 0) log.info({ attempts: attempt, broker }, 'AMQP reconnected');
      attempt = 0;
    },
    cancel(): void {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}

const notDone = (what: string, ms: number) => new RpcUnavailableError(`${what} not done within ${ms} ms`);

/** Runs `setup` on a new connection; a broker that took the connection and then stalled fails it after `ms`. */
function boundedSetup(options: ConnectionOptions, model: ChannelModel, ms: number): Promise<void> {
  return within(options.setup(model), ms, () => notDone('AMQP setup (channels, queues, consumers)', ms));
}

/** Closes the connection of a failed attempt: bounded, as close() can hang on a stalled broker (the heartbeat ends such a connection). */
async function abandon(model: ChannelModel | undefined, ms: number): Promise<void> {
  if (model) await within(model.close(), ms, () => notDone('AMQP close', ms)).catch(() => undefined);
}

function openConnection(url: string, options: ConnectionOptions): Promise<ChannelModel> {
  return connect(url, {
    timeout: options.connectTimeoutMs,
    // Without it, Nagle's algorithm and delayed ACKs add ~40 ms to a lone request/reply.
    noDelay: true,
    clientProperties: { connection_name: options.connectionName },
  });
}

/**
 * The brokers of the URL list in turn: the next attempt goes to the broker after one that failed an attempt or
 * whose connection ended, so that the nodes still up are reached without waiting for a lost one.
 */
function brokerTurns(url: string | readonly string[], heartbeatSeconds: number) {
  const urls = [url].flat().map((item) => withHeartbeat(item, heartbeatSeconds));
  let next = 0;
  let connected = 0;
  const moveOn = (from: number): void => {
    if (next === from) next = (from + 1) % urls.length;
  };
  return {
    next() {
      const index = next;
      const chosen = urls[index] ?? '';
      return { index, url: chosen, broker: brokerOf(chosen) };
    },
    moveOn,
    connected(index: number): void {
      connected = index;
    },
    /** The broker of the connection in use; the next attempt goes to the one after it. */
    leave(): string {
      moveOn(connected);
      return brokerOf(urls[connected] ?? '');
    },
  };
}

/** Callers waiting for a connection; each is answered once: connected, closed, or out of time. */
function connectionWaiters() {
  const waiters = new Set<(connected: boolean) => void>();
  return {
    settle(connected: boolean): void {
      for (const waiter of waiters) waiter(connected);
      waiters.clear();
    },
    wait(waitMs: number): Promise<void> {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(settle);
          reject(new RpcUnavailableError(`not connected to the AMQP broker within ${waitMs} ms`));
        }, waitMs);
        const settle = (connected: boolean): void => {
          clearTimeout(timer);
          if (connected) resolve();
          else reject(new RpcUnavailableError('AMQP connection is closed'));
        };
        waiters.add(settle);
      });
    },
  };
}

/**
 * One AMQP connection that reconnects with capped exponential backoff after any drop, forever, until
 * `close()`; with several broker URLs each attempt goes to the next broker after one that failed or dropped. amqplib's own recovery is not used: setup (channels, consumers) must be redone per connection
 * and callers need to know at once when there is no usable connection.
 */
export function createManagedConnection(options: ConnectionOptions): ManagedConnection {
  const log = options.logger;
  const setupTimeoutMs = options.setupTimeoutMs ?? DEFAULT_SETUP_TIMEOUT_MS;
  const brokers = brokerTurns(options.url, options.heartbeatSeconds);
  let current: ChannelModel | undefined;
  let closed = false;
  let connecting: Promise<void> | undefined;
  const retries = retryScheduler(log, options.reconnect);
  const waiters = connectionWaiters();
  function scheduleReconnect(): void {
    if (closed || current || connecting || retries.pending()) return;
    retries.schedule(start);
  }

  function start(): void {
    connecting = establish().finally(() => {
      connecting = undefined;
      if (!current) scheduleReconnect();
    });
  }

  async function establish(): Promise<void> {
    const { index, url, broker } = brokers.next();
    let model: ChannelModel | undefined;
    try {
      model = await openConnection(url, options);
      const self = model;
      let dropped = false;
      self.on('error', (error: Error) => log.warn({ err: error, broker }, 'AMQP connection error'));
      self.once('close', () => {
        dropped = true;
        brokers.moveOn(index);
        if (current !== self) return;
        current = undefined;
        if (!closed) log.warn({ broker }, 'AMQP connection lost; reconnecting');
        scheduleReconnect();
      });
      if (closed) throw new RpcUnavailableError('closed while connecting');
      await boundedSetup(options, self, setupTimeoutMs);
      if (closed) throw new RpcUnavailableError('closed while connecting');
      if (dropped) throw new RpcUnavailableError('connection dropped during setup');
      current = self;
      brokers.connected(index);
      retries.succeeded(broker);
      waiters.settle(true);
    } catch (error) {
      brokers.moveOn(index);
      if (!closed)
        log.warn({ err: error, broker, attempt: retries.attempt() }, 'AMQP connection attempt failed');
      await abandon(model, setupTimeoutMs);
    }
  }
  start();
  return {
    isConnected: () => current !== undefined,
    waitUntilConnected(waitMs) {
      if (current) return Promise.resolve();
      if (closed) return Promise.reject(new RpcUnavailableError('AMQP connection is closed'));
      return waiters.wait(waitMs);
    },
    restart(model, reason) {
      if (closed || current !== model) return;
      log.warn({ reason, broker: brokers.leave() }, 'AMQP connection restarted');
      current = undefined;
      // close() can hang on a half-dead socket; reconnecting does not wait for it.
      model.close().catch(() => undefined);
      scheduleReconnect();
    },
    async close() {
      if (closed) return;
      closed = true;
      retries.cancel();
      waiters.settle(false);
      await connecting;
      const model = current;
      current = undefined;
      await model?.close().catch(() => undefined);
    },
  };
}
