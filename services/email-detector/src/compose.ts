import { domainToASCII } from 'node:url';
import { campaignPolicy, connectClientSettings, type ClientSettingsStore } from '@spam-check/client-settings';
import { migrateStoredAddresses, privacyKeyWarning, tagClientKeysOnce } from '@spam-check/client-state';
import {
  connectRedis,
  Counter,
  createReadiness,
  fairShare,
  type Closer,
  type Consumer,
  type Logger,
  type Metrics,
  type ServiceContext,
  type StartedService,
} from '@spam-check/service-kit';
import { disposableEmailBlocklist } from 'disposable-email-domains-js';
import type { ServiceConfig } from './config';
import { createMailServerLookup, type MailServerLookup } from './data-access/mail-server-lookup';
import { createDisposableDomains } from './domain/disposable';
import { createOperatorList } from './domain/operator-lists';
import type { EmailFeedback } from './domain/reports';
import {
  memoryEmailFeedbackStores,
  redisEmailFeedbackStores,
  type EmailFeedbackOptions,
} from './data-access/email-feedback';
import { checkRecordOf, createEmailFeedback, type EmailCampaigns } from './domain/learn-from-report';
import { createApp } from './app';
import { createClientCheck, type CheckClientEmail } from './domain/check-for-client';
import { startRpcConsumer } from './entry-points/amqp/rpc-consumer';

const toAscii = (domain: string) => domainToASCII(domain);

const feedbackOptions = (config: ServiceConfig): EmailFeedbackOptions => ({
  hashKey: config.privacyHashKey,
  retentionSeconds: config.FEEDBACK_RETENTION_SECONDS,
  maxReports: config.FEEDBACK_MAX_REPORTS,
  maxCampaignSignatures: config.CAMPAIGN_MAX_SIGNATURES_PER_CLIENT,
  reportRetentionSeconds: config.reportRetentionSeconds,
});

/** Who shares in the campaign memory: the client's `campaigns.share` (docs/design.md, Campaigns). */
function campaignOptions(config: ServiceConfig, settings: ClientSettingsStore | undefined): EmailCampaigns {
  return {
    minClients: config.CAMPAIGN_MIN_CLIENTS,
    shares: async (client) => campaignPolicy(settings ? await settings.get(client) : {}, config).share,
  };
}

/**
 * Feedback in Redis when one is configured, else in memory (embedded mode, with a warning). With Redis, data
 * stored by an earlier version is migrated first (once per prefix).
 */
export async function createFeedbackStorage(
  config: ServiceConfig,
  logger: Logger,
  settings?: ClientSettingsStore,
): Promise<{ feedback: EmailFeedback; checks: Record<string, () => Promise<void>>; closers: Closer[] }> {
  const options = feedbackOptions(config);
  const campaigns = campaignOptions(config, settings);
  const keyWarning = privacyKeyWarning(config);
  if (keyWarning) logger.warn(keyWarning);
  if (!config.redis) {
    logger.warn('Redis is not configured: feedback is kept in memory of this process only');
    const stores = memoryEmailFeedbackStores(options);
    return { feedback: createEmailFeedback(stores, options.hashKey, campaigns), checks: {}, closers: [] };
  }
  const redis = await connectRedis({ target: config.redis, name: 'redis', logger });
  const stores = redisEmailFeedbackStores(redis.client, config.EMAIL_FEEDBACK_PREFIX, options);
  const prefix = config.EMAIL_FEEDBACK_PREFIX;
  const migrate = async () => {
    await tagClientKeysOnce(redis.client, prefix, logger);
    await migrateStoredAddresses(
      redis.client,
      prefix,
      { stores, hashKey: options.hashKey, checkRecordOf },
      logger,
    );
  };
  // Before serving when Redis is up; else (the service starts unready) once it is back.
  const attempt = () =>
    migrate().catch((error: unknown) =>
      logger.warn({ err: error }, 'stored addresses not migrated yet; retried when Redis is back'),
    );
  redis.client.on('ready', () => void attempt());
  if (redis.client.status === 'ready') await attempt();
  return {
    feedback: createEmailFeedback(stores, options.hashKey, campaigns),
    checks: { redis: redis.check },
    closers: [redis.closer],
  };
}

/** What the entry points use: the check for a client, the feedback, and the DNS lookup (null when off). */
export interface EmailChecker {
  checkEmail: CheckClientEmail;
  feedback: EmailFeedback;
  mailServers: MailServerLookup | null;
}

/** The check for a client wired from the configuration: lists loaded once, the DNS lookup, metrics. */
export function createEmailChecker(
  config: ServiceConfig,
  metrics: Metrics,
  feedback: EmailFeedback = createEmailFeedback(
    memoryEmailFeedbackStores(feedbackOptions(config)),
    config.privacyHashKey,
    campaignOptions(config, undefined),
  ),
  settings?: ClientSettingsStore,
): EmailChecker {
  const dnsLookups = new Counter({
    name: 'email_dns_lookups_total',
    help: 'MX lookups of the e-mail detector by outcome and whether the cache answered',
    labelNames: ['outcome', 'cached'] as const,
    registers: [metrics.registry],
  });
  const checks = new Counter({
    name: 'email_checks_total',
    help: 'E-mail checks by verdict and entry point',
    labelNames: ['verdict', 'entry_point'] as const,
    registers: [metrics.registry],
  });
  const mailServers = config.EMAIL_DNS_CHECK
    ? createMailServerLookup({
        servers: config.EMAIL_DNS_SERVERS,
        timeoutMs: config.EMAIL_DNS_TIMEOUT_MS,
        cacheTtlMs: config.EMAIL_DNS_CACHE_TTL_S * 1000,
        cacheSize: config.EMAIL_DNS_CACHE_SIZE,
        onLookup: (outcome, cached) => dnsLookups.inc({ outcome, cached: String(cached) }),
      })
    : null;
  const checkEmail = createClientCheck({
    settingsOf: settings && ((clientId) => settings.get(clientId)),
    campaignDefaults: config,
    checker: {
      disposableDomains: createDisposableDomains(disposableEmailBlocklist()),
      allowList: createOperatorList(config.EMAIL_ALLOW_LIST, toAscii),
      denyList: createOperatorList(config.EMAIL_DENY_LIST, toAscii),
      lookupMailServers: mailServers?.lookup ?? null,
    },
    feedback,
    formMinSeconds: config.FORM_MIN_SECONDS,
    share: fairShare(config.EMAIL_CLIENT_CHECKS_IN_FLIGHT),
    counted: (verdict, entryPoint) => checks.inc({ verdict, entry_point: entryPoint }),
  });
  return { checkEmail, feedback, mailServers };
}

/**
 * The e-mail detector wired from its configuration, top to bottom: client settings, feedback storage, the
 * checker (lists, DNS lookup, metrics), the RPC consumer (with AMQP_URL), the app, readiness and closers.
 * `main.ts` hands it to `runService`.
 */
export async function compose({
  config,
  logger,
  metrics,
}: ServiceContext<ServiceConfig>): Promise<StartedService> {
  const settings = config.redis
    ? await connectClientSettings(config.redis, logger, {
        prefix: config.CLIENT_SETTINGS_PREFIX,
        channel: config.CLIENT_SETTINGS_CHANNEL,
      })
    : undefined;
  const storage = await createFeedbackStorage(config, logger, settings);
  const closers: Closer[] = [...storage.closers];
  if (settings) closers.push({ name: 'client settings', close: () => settings.close() });
  else logger.warn('Redis is not configured: per-client settings are not read (operator defaults for all)');
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
      queueType: config.RPC_QUEUE_TYPE,
      logger,
      languages: config.LANGUAGES,
      defaultLanguage: config.DEFAULT_LANGUAGE,
      limits: config.limits,
      checker,
    });
  else logger.warn('AMQP_URL is not set: the RPC queue is not consumed (HTTP only)');
  return { app: createApp({ config, logger, metrics, readiness, checker }), readiness, closers, consumers };
}
