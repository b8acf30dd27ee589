import { connectClientSettings } from '@spam-check/client-settings';
import { ConfigError, type Closer, type Logger, type Metrics } from '@spam-check/service-kit';
import { Redis } from 'ioredis';
import type { ServiceConfig } from './config';
import { createTextChecker, type CheckTextInput, type TextCheck } from './domain/check-text';

/** A check for the client the gateway named (`X-Client-Id`), with that client's settings applied. */
export type CheckClientText = (
  input: Omit<CheckTextInput, 'settings'> & { clientId?: string | undefined },
) => Promise<TextCheck>;
import { createMemoryLlmCache, createRedisLlmCache } from './data-access/llm-cache';
import { createLlmClient } from './data-access/llm-client';
import { loadLanguageDetector } from './data-access/language-detector';
import { readModelFile } from './data-access/model-file';

export interface TextDetectorDeps {
  checkText: CheckClientText;
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
  if (llmOn && config.OPENAI_API_KEY && !config.REDIS_URL) {
    defaults.push('REDIS_URL is not set: LLM answers are cached in memory of this process only');
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
  let askLlm: Parameters<typeof createTextChecker>[0]['askLlm'];
  if (config.TEXT_LLM_MODE !== 'never' && config.OPENAI_API_KEY) {
    let cache = createMemoryLlmCache(config.TEXT_LLM_CACHE_MAX_ENTRIES, config.TEXT_LLM_CACHE_TTL_S);
    if (config.REDIS_URL) {
      const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
      redis.on('error', (error: Error) => logger.warn({ err: error }, 'Redis connection error'));
      cache = createRedisLlmCache(redis, config.TEXT_LLM_CACHE_PREFIX, config.TEXT_LLM_CACHE_TTL_S);
      checks.redis = async () => {
        await redis.ping();
      };
      closers.push({ name: 'redis', close: async () => void (await redis.quit()) });
    }
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
  const check = createTextChecker({
    model,
    detectLanguage,
    askLlm,
    config: {
      spamThreshold: config.TEXT_SPAM_THRESHOLD,
      suspiciousThreshold: config.TEXT_SUSPICIOUS_THRESHOLD,
      llmMode: config.TEXT_LLM_MODE,
      llmBand: config.TEXT_LLM_BAND,
      denyTerms: config.TEXT_DENY_TERMS,
    },
  });
  const checkText: CheckClientText = async ({ clientId, ...input }) =>
    check({ ...input, settings: settings && clientId ? (await settings.get(clientId)).text : undefined });
  return { checkText, checks, closers };
}
