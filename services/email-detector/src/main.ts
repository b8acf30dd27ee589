import { connectClientSettings } from '@spam-check/client-settings';
import { createReadiness, runService, type Closer, type Consumer } from '@spam-check/service-kit';
import { createApp } from './app';
import { loadServiceConfig } from './config';
import { createEmailChecker, createFeedbackStorage } from './email-check-deps';
import { startRpcConsumer } from './entry-points/amqp/rpc-consumer';

runService({
  name: 'email-detector',
  loadConfig: () => loadServiceConfig(),
  start: async ({ config, logger, metrics }) => {
    const storage = createFeedbackStorage(config, logger);
    const closers: Closer[] = [...storage.closers];
    const settings = config.REDIS_URL ? connectClientSettings(config.REDIS_URL, logger) : undefined;
    if (settings) closers.push({ name: 'client settings', close: () => settings.close() });
    else logger.warn('REDIS_URL is not set: per-client settings are not read (operator defaults for all)');
    const checker = createEmailChecker(config, metrics, storage.feedback, settings);
    const readiness = createReadiness(storage.checks);
    if (!config.EMAIL_DNS_CHECK) logger.warn('EMAIL_DNS_CHECK is off: MX records are not checked');
    if (checker.mailServers) {
      const mailServers = checker.mailServers;
      closers.push({ name: 'dns', close: async () => mailServers.close() });
    }
    const consumers: Record<string, Consumer> = {};
    if (config.AMQP_URL)
      consumers.amqp = startRpcConsumer({
        url: config.AMQP_URL,
        queue: config.EMAIL_RPC_QUEUE,
        logger,
        languages: config.LANGUAGES,
        defaultLanguage: config.DEFAULT_LANGUAGE,
        limits: config.limits,
        checker,
      });
    if (!config.AMQP_URL) logger.warn('AMQP_URL is not set: the RPC queue is not consumed (HTTP only)');
    return { app: createApp({ config, logger, metrics, readiness, checker }), readiness, closers, consumers };
  },
});
