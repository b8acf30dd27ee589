import { createReadiness, type ServiceContext, type StartedService } from '@spam-check/service-kit';
import { createApp } from './app';
import type { ServiceConfig } from './config';
import { createStore } from './data-access/create-store';
import { createSecretHasher } from './domain/secrets';
import { provision } from './provisioning';

/**
 * The auth service wired from its configuration, top to bottom: the store (Redis, or memory in embedded
 * mode), the secret hasher, the bootstrap clients and users, the app, its readiness and closer. `main.ts`
 * hands it to `runService`.
 */
export async function compose({
  config,
  logger,
  metrics,
}: ServiceContext<ServiceConfig>): Promise<StartedService> {
  if (config.embedded)
    logger.warn('Redis not configured: tokens, clients and users live in memory (embedded mode)');
  const store = await createStore(config, logger);
  const hasher = createSecretHasher(config.AUTH_SCRYPT_COST);
  try {
    // Unlike the other services, auth does not start without its store: the bootstrap clients and users
    // must be in place before the first token request, so an unreachable Redis ends the process here.
    await store.ping();
    await provision(config, store, hasher, logger);
  } catch (error) {
    await store.close();
    throw error;
  }
  const readiness = createReadiness({ [store.kind]: () => store.ping() });
  const app = createApp({ config, logger, metrics, readiness, store, hasher });
  return { app, readiness, closers: [{ name: store.kind, close: () => store.close() }] };
}
