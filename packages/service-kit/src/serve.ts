import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import type { Logger } from 'pino';
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

/** Listens and returns a stop function; `registerShutdown` wires it to SIGTERM/SIGINT. */
export async function serve(
  app: Express,
  options: {
    port: number;
    host?: string;
    logger: Logger;
    readiness: Readiness;
    closers?: Closer[];
    keepAliveTimeoutMs?: number;
  },
): Promise<RunningService> {
  const server = app.listen(options.port, options.host ?? '0.0.0.0');
  await once(server, 'listening');
  server.keepAliveTimeout = options.keepAliveTimeoutMs ?? 65_000;
  server.headersTimeout = server.keepAliveTimeout + 1000;
  const port = (server.address() as AddressInfo).port;
  options.logger.info({ port }, 'listening');

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      options.readiness.draining = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
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
