import { connectClientSettings } from '@spam-check/client-settings';
import {
  ConfigError,
  memoryCheckMemory,
  memoryClientMap,
  redisCheckMemory,
  redisClientMap,
  type Closer,
  type Logger,
  type Metrics,
} from '@spam-check/service-kit';
import { Redis } from 'ioredis';
import type { ServiceConfig } from './config';
import {
  createTextChecker,
  createTextLearner,
  type CheckTextInput,
  type TextCheck,
} from './domain/check-text';
import type { TextModel } from './domain/model/classifier';
import { createTextFeedbackStore, type TextFeedbackStore } from './data-access/text-feedback-store';
import { createMemoryLlmCache, createRedisLlmCache } from './data-access/llm-cache';
import { createLlmClient } from './data-access/llm-client';
import { loadLanguageDetector } from './data-access/language-detector';
import { readModelFile } from './data-access/model-file';

/**
 * A check for the client the gateway named (`X-Client-Id`), with that client's settings and reports applied:
 * what every entry point (HTTP, RPC, each item of a batch) calls.
 */
export type CheckClientText = (input: Omit<CheckTextInput, 'settings'>) => Promise<TextCheck>;

export interface TextDetectorDeps {
  checkText: CheckClientText;
  feedback: TextFeedbackStore;
  learnText: ReturnType<typeof createTextLearner>;
  /** Readiness checks of the dependencies built here. */
  checks: Record<string, () => Promise<void>>;
  closers: Closer[];
}

/**
 * Embedded defaults this configuration falls back to; each is a warning, and NODE_ENV=production refuses
 * them (an operator who wants no LLM says TEXT_LLM_MODE=never).
 */
export function embeddedDefaults(config: ServiceConfig): string[] {
  const llmOn = config.TEXT_LLM_MODE !== 'never';
  const defaults: string[] = [];
  if (!config.AMQP_URL) defaults.push('AMQP_URL is not set: the RPC queue is not consumed (HTTP only)');
  if (llmOn && !config.OPENAI_API_KEY) {
    defaults.push(
      'OPENAI_API_KEY is not set: local stages only; unsure texts are answered with degraded: true',
    );
  }
  if (!config.REDIS_URL) {
    defaults.push(
      llmOn && config.OPENAI_API_KEY
        ? 'REDIS_URL is not set: feedback and LLM answers are kept in memory of this process only'
        : 'REDIS_URL is not set: feedback is kept in memory of this process only',
    );
  }
  return defaults;
}

export async function buildDependencies(
  config: ServiceConfig,
  logger: Logger,
  metrics: Metrics,
): Promise<TextDetectorDeps> {
  const defaults = embeddedDefaults(config);
  if (config.NODE_ENV === 'production' && defaults.length > 0) throw new ConfigError(defaults);
  for (const warning of defaults) logger.warn(warning);

  const model = readModelFile(config.TEXT_MODEL_PATH);
  const detectLanguage = await loadLanguageDetector();
  const checks: TextDetectorDeps['checks'] = {};
  const closers: Closer[] = [];
  let redis: Redis | undefined;
  if (config.REDIS_URL) {
    const client = new Redis(config.REDIS_URL, {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      commandTimeout: 1000,
      enableAutoPipelining: true,
    });
    client.on('error', (error: Error) => logger.warn({ err: error }, 'Redis connection error'));
    checks.redis = async () => {
      await client.ping();
    };
    closers.push({
      name: 'redis',
      close: async () => {
        if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
        else client.disconnect();
      },
    });
    redis = client;
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
  const settings = config.REDIS_URL ? connectClientSettings(config.REDIS_URL, logger) : undefined;
  if (settings) closers.push({ name: 'client settings', close: () => settings.close() });
  else logger.warn('REDIS_URL is not set: per-client settings are not read (operator defaults for all)');
  const feedback = createFeedbackStore(config, model, redis);
  const cascadeConfig = {
    spamThreshold: config.TEXT_SPAM_THRESHOLD,
    suspiciousThreshold: config.TEXT_SUSPICIOUS_THRESHOLD,
    llmMode: config.TEXT_LLM_MODE,
    llmBand: config.TEXT_LLM_BAND,
    denyTerms: config.TEXT_DENY_TERMS,
  };
  const check = createTextChecker({ model, detectLanguage, askLlm, config: cascadeConfig, feedback });
  const checkText: CheckClientText = async (input) =>
    check({
      ...input,
      settings: settings && input.clientId ? (await settings.get(input.clientId)).text : undefined,
    });
  const learnText = createTextLearner({ model, detectLanguage, config: cascadeConfig });
  return { checkText, feedback, learnText, checks, closers };
}

/** Feedback in Redis when REDIS_URL is set, else in memory (embedded mode). */
export function createFeedbackStore(
  config: ServiceConfig,
  model: TextModel,
  redis: Redis | undefined,
): TextFeedbackStore {
  const retention = config.FEEDBACK_RETENTION_SECONDS;
  const maxReports = config.FEEDBACK_MAX_REPORTS;
  const maxWeights = config.TEXT_FEEDBACK_MAX_WEIGHTS;
  const prefix = config.TEXT_FEEDBACK_PREFIX;
  return createTextFeedbackStore({
    checks: redis ? redisCheckMemory(redis, prefix, retention) : memoryCheckMemory(retention),
    state: redis
      ? redisClientMap(redis, `${prefix}state:`, maxReports + maxWeights)
      : memoryClientMap(maxReports + maxWeights),
    texts: redis ? redisClientMap(redis, `${prefix}texts:`, maxReports) : memoryClientMap(maxReports),
    calibration: model,
    maxReports,
    maxWeights,
    cachedClients: config.TEXT_FEEDBACK_CACHED_CLIENTS,
  });
}
