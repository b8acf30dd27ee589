import { once } from 'node:events';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { DEFAULT_LANGUAGE, type Language } from '@spam-check/contracts';
import type { Logger } from 'pino';
import { answerClientError } from './client-error';
import { InFlightResponses } from './in-flight';
import type { Readiness } from './readiness';

export interface Closer {
  name: string;
  close: () => Promise<void>;
}

export interface RunningService {
  server: Server;
  port: number;
  /** Drains: readiness turns false, new connections are refused, in-flight requests finish, closers run. */
  stop: () => Promise<void>;
}

/** How long a connection may take to send a request, and stay idle between requests (`serve`). */
export interface ServerTimeouts {
  /** Until the request headers are complete (Node's `headersTimeout`); at most `requestMs`. */
  headersMs: number;
  /** Until the whole request, body included, has arrived (Node's `requestTimeout`). */
  requestMs: number;
  /** Idle time of a keep-alive connection between requests (Node's `keepAliveTimeout`). */
  keepAliveMs: number;
}

export const DEFAULT_SERVER_TIMEOUTS: ServerTimeouts = {
  headersMs: 10_000,
  requestMs: 30_000,
  keepAliveMs: 65_000,
};

/**
 * Listens and returns a stop function; `registerShutdown` wires it to SIGTERM/SIGINT.
 *
 * Slow clients: Node's 300 s default request timeout is replaced by `timeouts` (a request slower than that
 * gets 408 and its connection is closed), and Node checks them every second instead of every 30 s. Requests
 * Node's parser refuses get a problem body and an `X-Request-Id` (`answerClientError`).
 *
 * Draining (`stop`): readiness turns false and no connection is accepted any more; every response still to be
 * sent, whether its request is in flight now or arrives later on an open connection, carries `Connection:
 * close`, and Node closes the connection after it; idle keep-alive connections are closed at once, and those
 * whose answer had already begun as soon as it is complete. When the last connection is gone the closers run.
 */
export async function serve(
  app: RequestListener,
  options: {
    port: number;
    host?: string;
    logger: Logger;
    readiness: Readiness;
    closers?: Closer[];
    timeouts?: Partial<ServerTimeouts>;
    /** The language of the problems answered to requests Node's parser refused (no headers were read). */
    language?: Language;
  },
): Promise<RunningService> {
  const timeouts = { ...DEFAULT_SERVER_TIMEOUTS, ...options.timeouts };
  let draining = false;
  const inFlight = new InFlightResponses();
  const closeIdleSoon = () => setImmediate(() => server.closeIdleConnections());
  const server = createServer(
    {
      requestTimeout: timeouts.requestMs,
      headersTimeout: Math.min(timeouts.headersMs, timeouts.requestMs),
      keepAliveTimeout: timeouts.keepAliveMs,
      connectionsCheckingInterval: Math.min(1000, timeouts.headersMs),
    },
    (req, res) => {
      if (draining) res.setHeader('Connection', 'close');
      const remove = inFlight.add(res);
      res.once('close', () => {
        remove();
        if (draining) closeIdleSoon();
      });
      app(req, res);
    },
  );
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    let responseStarted = false;
    for (const res of inFlight) if (res.socket === socket && res.headersSent) responseStarted = true;
    answerClientError(error, socket, {
      logger: options.logger,
      language: options.language ?? DEFAULT_LANGUAGE,
      responseStarted,
    });
  });
  server.listen(options.port, options.host ?? '0.0.0.0');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  options.logger.info({ port }, 'listening');

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      options.readiness.draining = true;
      draining = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
      server.closeIdleConnections();
      await closed;
      for (const closer of options.closers ?? []) {
        try {
          await closer.close();
        } catch (error) {
          options.logger.warn({ err: error, dependency: closer.name }, 'closing a dependency failed');
        }
      }
    })());
  return { server, port, stop };
}

/**
 * Listens with the management app (probes and metrics). It keeps answering while the service drains, so
 * `/readyz` says "not ready" until the end; `close` runs last among the closers.
 */
export async function listenForManagement(
  app: RequestListener,
  options: { port: number; host?: string },
): Promise<{ port: number; close: () => Promise<void> }> {
  const server = createServer(app).listen(options.port, options.host ?? '0.0.0.0');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** On SIGTERM or SIGINT: drain within the timeout, then exit; a hung drain is cut off with exit code 1. */
export function registerShutdown(service: RunningService, logger: Logger, timeoutMs: number): void {
  const onSignal = (signal: NodeJS.Signals) => {
    logger.info({ signal, timeout_ms: timeoutMs }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error('shutdown timed out; exiting');
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    service.stop().then(
      () => {
        logger.info('shutdown complete');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}
