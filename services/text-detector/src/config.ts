import { campaignConfigShape } from '@spam-check/client-settings';
import { DETECTOR_RPC_QUEUES } from '@spam-check/contracts';
import { detectorConfigOf, detectorConfigShape } from '@spam-check/detector-kit';
import { env, loadConfig, type Env } from '@spam-check/service-kit';
import { formConfigShape } from '@spam-check/form-signals';
import { z } from 'zod';

const probability = (fallback: number) => z.coerce.number().min(0).max(1).default(fallback);

const band = z
  .string()
  .default('0.3,0.8')
  .transform((value, ctx) => {
    const parts = value.split(',').map((part) => Number(part.trim()));
    const [low, high] = parts;
    if (
      parts.length !== 2 ||
      low === undefined ||
      high === undefined ||
      !(low >= 0 && low < high && high <= 1)
    ) {
      ctx.addIssue({ code: 'custom', message: 'must be "low,high" with 0 <= low < high <= 1' });
      return z.NEVER;
    }
    return [low, high] as const;
  });

/** Every variable the text detector reads (documented in the README's configuration table). */
export const configSchema = z.object({
  ...detectorConfigShape,
  ...formConfigShape,
  TEXT_FEEDBACK_PREFIX: z.string().default('spam-check:text-feedback:'),
  TEXT_FEEDBACK_MAX_WEIGHTS: env.positiveInt(20_000),
  /**
   * One client's reports applied per second at most (../domain/client-reports.ts); up to 2 s of them wait in
   * the client's queue, more are refused with 429.
   */
  TEXT_FEEDBACK_REPORTS_PER_SECOND: env.positiveInt(20),
  ...campaignConfigShape,
  TEXT_RPC_QUEUE: z.string().min(1).default(DETECTOR_RPC_QUEUES.text),
  TEXT_RPC_PREFETCH: env.positiveInt(10),
  TEXT_MODEL_PATH: z.string().optional(),
  TEXT_SPAM_THRESHOLD: probability(0.8),
  TEXT_SUSPICIOUS_THRESHOLD: probability(0.5),
  TEXT_DENY_TERMS: env.list(),
  /**
   * Characters of one client's checks that run at once (at least one check, however long); more wait in the
   * client's own queue, so one client's heavy batches cannot hold up another's checks.
   */
  TEXT_CLIENT_CHARS_IN_FLIGHT: env.positiveInt(100_000),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: env.url(),
  OPENAI_MODEL: z.string().min(1).default('gpt-4o-mini'),
  TEXT_LLM_MODE: z.enum(['band', 'always', 'never']).default('band'),
  TEXT_LLM_BAND: band,
  TEXT_LLM_TIMEOUT_MS: env.positiveInt(5000),
  TEXT_LLM_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(1),
  TEXT_LLM_CACHE_TTL_S: env.positiveInt(7 * 24 * 3600),
  TEXT_LLM_CACHE_PREFIX: z.string().default('spam-check:text-llm:'),
  TEXT_LLM_CACHE_MAX_ENTRIES: env.positiveInt(10_000),
});

export function loadServiceConfig(source: Env = process.env) {
  const config = loadConfig(configSchema, source);
  return detectorConfigOf(config, source, { variable: 'TEXT_DETECTOR_PORT', fallback: 8083 });
}
export type ServiceConfig = ReturnType<typeof loadServiceConfig>;

/** The host the LLM stage sends texts to (the OpenAI API unless OPENAI_BASE_URL says otherwise), or null when off. */
export function llmEndpointHost(config: ServiceConfig): string | null {
  if (config.TEXT_LLM_MODE === 'never' || !config.OPENAI_API_KEY) return null;
  return new URL(config.OPENAI_BASE_URL ?? 'https://api.openai.com/v1').host;
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
  if (!config.redis) {
    defaults.push(
      llmOn && config.OPENAI_API_KEY
        ? 'Redis is not configured: feedback and LLM answers are kept in memory of this process only'
        : 'Redis is not configured: feedback is kept in memory of this process only',
    );
  }
  return defaults;
}
