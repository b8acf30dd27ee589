import {
  createLogger,
  createMetrics,
  createReadiness,
  registerShutdown,
  serve,
} from '@spam-check/service-kit';
import { createApp } from './app';
import { loadServiceConfig } from './config';
import { createStore } from './data-access/create-store';
import { createSecretHasher } from './domain/secrets';
import { provision } from './provisioning';

async function main(): Promise<void> {
  const config = loadServiceConfig();
  const logger = createLogger({ service: 'auth', level: config.LOG_LEVEL });
  if (config.embedded)
    logger.warn('REDIS_URL not set: tokens, clients and users live in memory (embedded mode)');
  const store = await createStore(config);
  const hasher = createSecretHasher(config.AUTH_SCRYPT_COST);
  await provision(config, store, hasher, logger);
  const metrics = createMetrics('auth');
  const readiness = createReadiness({ [store.kind]: () => store.ping() });
  const app = createApp({ config, logger, metrics, readiness, store, hasher });
  const service = await serve(app, {
    port: config.port,
    host: config.HOST,
    logger,
    readiness,
    closers: [{ name: store.kind, close: () => store.close() }],
  });
  registerShutdown(service, logger, config.SHUTDOWN_TIMEOUT_MS);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
