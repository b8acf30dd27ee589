import { createReadiness, runService, type Consumer } from '@spam-check/service-kit';
import { createApp } from './app';
import { loadServiceConfig } from './config';
import { buildDependencies } from './dependencies';
import { startRpcConsumer } from './entry-points/amqp/rpc-consumer';

runService({
  name: 'text-detector',
  loadConfig: () => loadServiceConfig(),
  start: async ({ config, logger, metrics }) => {
    const { checkText, feedback, learnText, checks, closers } = await buildDependencies(
      config,
      logger,
      metrics,
    );
    const readiness = createReadiness(checks);
    const consumers: Record<string, Consumer> = {};
    if (config.AMQP_URL)
      consumers.amqp = startRpcConsumer({
        url: config.AMQP_URL,
        queue: config.TEXT_RPC_QUEUE,
        prefetch: config.TEXT_RPC_PREFETCH,
        logger,
        languages: config.LANGUAGES,
        defaultLanguage: config.DEFAULT_LANGUAGE,
        limits: config.limits,
        checkText,
      });
    return {
      app: createApp({ config, logger, metrics, readiness, checkText, feedback, learnText }),
      readiness,
      closers,
      consumers,
    };
  },
});
