import type { Language } from '@spam-check/contracts';
import { ConfigError } from './config';
import { createLogger, type Logger } from './logger';
import { createMetrics, type Metrics } from './metrics';
import type { Readiness } from './readiness';
import { createManagementApp, type ServiceApp } from './app';
import { listenForManagement, registerShutdown, serve, type Closer } from './serve';

export interface RunnableConfig {
  LOG_LEVEL: string;
  HOST: string;
  DEFAULT_LANGUAGE: Language;
  SHUTDOWN_TIMEOUT_MS: number;
  HEADERS_TIMEOUT_MS: number;
  REQUEST_TIMEOUT_MS: number;
  KEEP_ALIVE_TIMEOUT_MS: number;
  port: number;
  /** When set, `/readyz` and `/metrics` are served on this port (see `createManagementApp`). */
  managementPort?: number;
}

/** A background consumer (e.g. of an RPC queue), as the service started it. */
export interface Consumer {
  isConnected(): boolean;
  close(): Promise<void>;
}

/** What `runService` hands a service's wiring (its `compose`): the parsed config, a logger and metrics. */
export interface ServiceContext<C> {
  config: C;
  logger: Logger;
  metrics: Metrics;
}

export interface StartedService {
  app: ServiceApp;
  readiness: Readiness;
  /** Closed in order after the server has drained. */
  closers?: Closer[];
  /** By name: each is a readiness check (ready while connected) and is closed before the closers. */
  consumers?: Record<string, Consumer>;
}

/**
 * The whole life of a service process: config, logger and metrics, the service's own wiring (`start`),
 * listen, and graceful shutdown on SIGTERM/SIGINT. A bad configuration exits 1 listing every problem.
 */
export function runService<C extends RunnableConfig>(spec: {
  name: string;
  loadConfig: () => C;
  start: (context: ServiceContext<C>) => Promise<StartedService>;
}): void {
  const run = async () => {
    const config = spec.loadConfig();
    const logger = createLogger({ service: spec.name, level: config.LOG_LEVEL });
    const metrics = createMetrics(spec.name);
    const { app, readiness, closers = [], consumers = {} } = await spec.start({ config, logger, metrics });
    for (const [name, consumer] of Object.entries(consumers)) {
      readiness.checks[name] = async () => {
        if (!consumer.isConnected()) throw new Error('not connected');
      };
    }
    const consumerClosers = Object.entries(consumers).map(([name, consumer]) => ({
      name,
      close: () => consumer.close(),
    }));
    const managementClosers: Closer[] = [];
    if (config.managementPort !== undefined) {
      const management = await listenForManagement(createManagementApp({ metrics, readiness }), {
        port: config.managementPort,
        host: config.HOST,
      });
      logger.info({ port: management.port }, 'management listening');
      managementClosers.push({ name: 'management listener', close: management.close });
    }
    const service = await serve(app, {
      port: config.port,
      host: config.HOST,
      logger,
      readiness,
      closers: [...consumerClosers, ...closers, ...managementClosers],
      timeouts: {
        headersMs: config.HEADERS_TIMEOUT_MS,
        requestMs: config.REQUEST_TIMEOUT_MS,
        keepAliveMs: config.KEEP_ALIVE_TIMEOUT_MS,
      },
      language: config.DEFAULT_LANGUAGE,
    });
    registerShutdown(service, logger, config.SHUTDOWN_TIMEOUT_MS);
  };
  run().catch((error: unknown) => {
    const message =
      error instanceof ConfigError ? error.message : error instanceof Error ? error.stack : String(error);
    process.stderr.write(`${spec.name} failed to start: ${message}\n`);
    process.exit(1);
  });
}
