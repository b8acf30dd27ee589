import { campaignPolicy, connectClientSettings, type ClientSettingsStore } from '@spam-check/client-settings';
import {
  memoryCampaignMemory,
  memoryCheckMemory,
  memoryClientMap,
  privacyKeyWarning,
  redisCampaignMemory,
  redisCheckMemory,
  redisClientMap,
} from '@spam-check/client-state';
import type { Eraser } from '@spam-check/detector-kit';
import {
  ConfigError,
  connectRedis,
  createReadiness,
  fairShare,
  type Closer,
  type Consumer,
  type Logger,
  type Metrics,
  type ServiceContext,
  type StartedService,
} from '@spam-check/service-kit';
import type { RedisClient } from '@spam-check/service-kit';
import { embeddedDefaults, type ServiceConfig } from './config';
import { reportsInTurn, type ReportsInTurn } from './domain/client-reports';
import { startRpcConsumer } from './entry-points/amqp/rpc-consumer';
import { createApp } from './app';
import { createTextChecker, createTextLearner, type TextFeedback } from './domain/check-text';
import { createClientCheck, type CheckClientText } from './domain/check-for-client';
import type { TextModel } from './domain/model/classifier';
import { createTextFeedbackStore, type TextFeedbackStore } from './data-access/text-feedback-store';
import { lookupClientView, rememberCheck } from './domain/client-view';
import {
  learnFromCheck,
  learnFromReport,
  type LearnFromReports,
  type Learning,
} from './domain/learn-from-report';
import { textEraser } from './data-access/text-erasure';
import { createMemoryLlmCache, createRedisLlmCache } from './data-access/llm-cache';
import { createLlmClient } from './data-access/llm-client';
import { loadLanguageDetector } from './data-access/language-detector';
import { readModelFile } from './data-access/model-file';
import { BANDS } from './domain/near-duplicate';

/** What the check needs, built once: the same for the service, its tests, its bench. */
export interface TextCheckDeps {
  checkText: CheckClientText;
  feedback: ClientFeedback;
  learnText: ReturnType<typeof createTextLearner>;
  /** The turn in which a client's report over HTTP runs (paced per client). */
  reports: ReportsInTurn;
  eraser: Eraser;
  /** Readiness checks of the dependencies built here. */
  checks: Record<string, () => Promise<void>>;
  closers: Closer[];
}

/** The check and what it needs (model, language detector, Redis, LLM, client settings, feedback). */
export async function composeTextCheck(
  config: ServiceConfig,
  logger: Logger,
  metrics: Metrics,
): Promise<TextCheckDeps> {
  const defaults = embeddedDefaults(config);
  if (config.NODE_ENV === 'production' && defaults.length > 0) throw new ConfigError(defaults);
  for (const warning of defaults) logger.warn(warning);
  const keyWarning = privacyKeyWarning(config);
  if (keyWarning) logger.warn(keyWarning);

  const model = readModelFile(config.TEXT_MODEL_PATH);
  const detectLanguage = await loadLanguageDetector();
  const checks: TextCheckDeps['checks'] = {};
  const closers: Closer[] = [];
  let redis: RedisClient | undefined;
  if (config.redis) {
    const connection = await connectRedis({ target: config.redis, name: 'redis', logger });
    checks.redis = connection.check;
    closers.push(connection.closer);
    redis = connection.client;
  }
  let askLlm: Parameters<typeof createTextChecker>[0]['askLlm'];
  if (config.TEXT_LLM_MODE !== 'never' && config.OPENAI_API_KEY) {
    const cache = redis
      ? createRedisLlmCache(redis, config.TEXT_LLM_CACHE_PREFIX, config.TEXT_LLM_CACHE_TTL_S)
      : createMemoryLlmCache(config.TEXT_LLM_CACHE_MAX_ENTRIES, config.TEXT_LLM_CACHE_TTL_S);
    askLlm = createLlmClient({
      apiKey: config.OPENAI_API_KEY,
      baseURL: config.OPENAI_BASE_URL,
      model: config.OPENAI_MODEL,
      timeoutMs: config.TEXT_LLM_TIMEOUT_MS,
      maxRetries: config.TEXT_LLM_MAX_RETRIES,
      cache,
      metrics,
      logger,
    });
  }
  const settings = config.redis
    ? await connectClientSettings(config.redis, logger, {
        prefix: config.CLIENT_SETTINGS_PREFIX,
        channel: config.CLIENT_SETTINGS_CHANNEL,
      })
    : undefined;
  if (settings) closers.push({ name: 'client settings', close: () => settings.close() });
  else logger.warn('Redis is not configured: per-client settings are not read (operator defaults for all)');
  const stores = feedbackStores(config, redis);
  const feedback = createFeedbackStore(config, model, redis, settings, stores);
  const cascadeConfig = {
    spamThreshold: config.TEXT_SPAM_THRESHOLD,
    suspiciousThreshold: config.TEXT_SUSPICIOUS_THRESHOLD,
    llmMode: config.TEXT_LLM_MODE,
    llmBand: config.TEXT_LLM_BAND,
    denyTerms: config.TEXT_DENY_TERMS,
  };
  const checkText = createClientCheck({
    settingsOf: settings && ((clientId) => settings.get(clientId)),
    campaignDefaults: config,
    checkText: createTextChecker({ model, detectLanguage, askLlm, config: cascadeConfig, feedback }),
    formMinSeconds: config.FORM_MIN_SECONDS,
    suspiciousThreshold: config.TEXT_SUSPICIOUS_THRESHOLD,
    spamThreshold: config.TEXT_SPAM_THRESHOLD,
    share: fairShare(config.TEXT_CLIENT_CHARS_IN_FLIGHT),
  });
  const learnText = createTextLearner({ model, detectLanguage, config: cascadeConfig });
  const reports = reportsInTurn({ perSecond: config.TEXT_FEEDBACK_REPORTS_PER_SECOND, queueSeconds: 2 });
  return { checkText, feedback, learnText, reports, eraser: textEraser(stores), checks, closers };
}

/**
 * The feedback stores, in Redis when one is configured, else in memory (embedded mode): check records for
 * FEEDBACK_RETENTION_SECONDS; the reports, their band index, the weights, the reported texts and the campaign
 * memory for FEEDBACK_REPORT_RETENTION_DAYS. A client's maps share its hash tag (see `redisClientMap`); the
 * campaign memory keys each signature apart.
 */
function feedbackStores(config: ServiceConfig, redis: RedisClient | undefined) {
  const retention = config.FEEDBACK_RETENTION_SECONDS;
  const kept = config.reportRetentionSeconds;
  const maxReports = config.FEEDBACK_MAX_REPORTS;
  const prefix = config.TEXT_FEEDBACK_PREFIX;
  const map = (name: string, cap: number) =>
    redis ? redisClientMap(redis, `${prefix}${name}:`, cap, kept) : memoryClientMap(cap, kept);
  const campaignOptions = {
    key: config.privacyHashKey,
    ttlSeconds: kept,
    maxPerClient: config.CAMPAIGN_MAX_SIGNATURES_PER_CLIENT,
  };
  return {
    checks: redis ? redisCheckMemory(redis, prefix, retention) : memoryCheckMemory(retention),
    reports: map('reports', maxReports),
    bands: map('bands', maxReports * BANDS),
    weights: map('weights', config.TEXT_FEEDBACK_MAX_WEIGHTS),
    texts: map('texts', maxReports),
    campaigns: redis
      ? redisCampaignMemory(redis, prefix, campaignOptions)
      : memoryCampaignMemory(campaignOptions),
  };
}

/** The clients' feedback as the check, the feedback route and `feedback export` use it. */
export type ClientFeedback = TextFeedback &
  LearnFromReports &
  Pick<TextFeedbackStore, 'reportedTexts' | 'clients'>;

export function createFeedbackStore(
  config: ServiceConfig,
  model: TextModel,
  redis: RedisClient | undefined,
  settings?: ClientSettingsStore,
  stores = feedbackStores(config, redis),
): ClientFeedback {
  const store = createTextFeedbackStore(stores);
  const learning: Learning = {
    calibration: model,
    thresholds: {
      spamThreshold: config.TEXT_SPAM_THRESHOLD,
      suspiciousThreshold: config.TEXT_SUSPICIOUS_THRESHOLD,
    },
    campaigns: {
      minClients: config.CAMPAIGN_MIN_CLIENTS,
      shares: async (client) => campaignPolicy(settings ? await settings.get(client) : {}, config).share,
    },
  };
  return {
    lookup: (client, fingerprint, vector, protect) =>
      lookupClientView(store, learning, client, fingerprint, vector, protect),
    remember: (client, checkId, learnable) => rememberCheck(store, client, checkId, learnable),
    reportCheck: (client, checkId, label) => learnFromCheck(store, learning, client, checkId, label),
    reportText: (client, learnable, label) => learnFromReport(store, learning, client, learnable, label),
    reportedTexts: (client) => store.reportedTexts(client),
    clients: () => store.clients(),
  };
}

/** TEXT_RPC_QUEUE consumed with the service's settings from `brokers` (AMQP_URL's, or a test's broker). */
export function consumeRpcQueue(
  config: ServiceConfig,
  brokers: readonly string[],
  logger: Logger,
  checkText: CheckClientText,
) {
  return startRpcConsumer({
    url: brokers,
    queue: config.TEXT_RPC_QUEUE,
    queueType: config.RPC_QUEUE_TYPE,
    prefetch: config.TEXT_RPC_PREFETCH,
    logger,
    languages: config.LANGUAGES,
    defaultLanguage: config.DEFAULT_LANGUAGE,
    limits: config.limits,
    checkText,
  });
}

/**
 * The text detector wired from its configuration, top to bottom: the check and its dependencies, the RPC
 * consumer (with AMQP_URL), the app, readiness and closers. `main.ts` hands it to `runService`.
 */
export async function compose({
  config,
  logger,
  metrics,
}: ServiceContext<ServiceConfig>): Promise<StartedService> {
  const { checkText, feedback, learnText, reports, eraser, checks, closers } = await composeTextCheck(
    config,
    logger,
    metrics,
  );
  const readiness = createReadiness(checks);
  const consumers: Record<string, Consumer> = {};
  if (config.AMQP_URL) consumers.amqp = consumeRpcQueue(config, config.AMQP_URL, logger, checkText);
  return {
    app: createApp({ config, logger, metrics, readiness, checkText, feedback, learnText, reports, eraser }),
    readiness,
    closers,
    consumers,
  };
}
