import {
  createLogger,
  createMetrics,
  createReadiness,
  registerShutdown,
  serve,
} from '@spam-check/service-kit';
import { createApp } from './app';
import { loadServiceConfig } from './config';

async function main(): Promise<void> {
  const config = loadServiceConfig();
  const logger = createLogger({ service: 'auth', level: config.LOG_LEVEL });
  const metrics = createMetrics('auth');
  const readiness = createReadiness();
  const app = createApp({ config, logger, metrics, readiness });
  const service = await serve(app, { port: config.port, host: config.HOST, logger, readiness });
  registerShutdown(service, logger, config.SHUTDOWN_TIMEOUT_MS);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
