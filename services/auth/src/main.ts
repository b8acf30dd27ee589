import { createReadiness, runService } from '@spam-check/service-kit';
import { createApp } from './app';
import { loadServiceConfig } from './config';
import { createStore } from './data-access/create-store';
import { createSecretHasher } from './domain/secrets';
import { provision } from './provisioning';

runService({
  name: 'auth',
  loadConfig: () => loadServiceConfig(),
  start: async ({ config, logger, metrics }) => {
    if (config.embedded)
      logger.warn('REDIS_URL not set: tokens, clients and users live in memory (embedded mode)');
    const store = await createStore(config);
    const hasher = createSecretHasher(config.AUTH_SCRYPT_COST);
    await provision(config, store, hasher, logger);
    const readiness = createReadiness({ [store.kind]: () => store.ping() });
    const app = createApp({ config, logger, metrics, readiness, store, hasher });
    return { app, readiness, closers: [{ name: store.kind, close: () => store.close() }] };
  },
});
