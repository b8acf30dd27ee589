import { createReadiness, runService, type Closer } from '@spam-check/service-kit';
import { createApp } from './app';
import { loadServiceConfig } from './config';
import { createEmailChecker } from './email-check-deps';
import { startRpcConsumer } from './entry-points/amqp/rpc-consumer';

runService({
  name: 'email-detector',
  loadConfig: () => loadServiceConfig(),
  start: async ({ config, logger, metrics }) => {
    const checker = createEmailChecker(config, metrics);
    const readiness = createReadiness();
    const closers: Closer[] = [];
    if (!config.EMAIL_DNS_CHECK) logger.warn('EMAIL_DNS_CHECK is off: MX records are not checked');
    if (checker.mailServers) {
      const mailServers = checker.mailServers;
      closers.push({ name: 'dns', close: async () => mailServers.close() });
    }
    if (config.AMQP_URL) {
      const rpc = startRpcConsumer({
        url: config.AMQP_URL,
        queue: config.EMAIL_RPC_QUEUE,
        logger,
        languages: config.LANGUAGES,
        defaultLanguage: config.DEFAULT_LANGUAGE,
        checker,
      });
      readiness.checks.amqp = async () => {
        if (!rpc.isConnected()) throw new Error('not consuming the RPC queue');
      };
      closers.unshift({ name: 'amqp', close: () => rpc.close() });
    } else {
      logger.warn('AMQP_URL is not set: the RPC queue is not consumed (HTTP only)');
    }
    return { app: createApp({ config, logger, metrics, readiness, checker }), readiness, closers };
  },
});
