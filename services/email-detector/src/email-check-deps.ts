import { domainToASCII } from 'node:url';
import { Counter, type Closer, type Logger, type Metrics } from '@spam-check/service-kit';
import { Redis } from 'ioredis';
import { disposableEmailBlocklist } from 'disposable-email-domains-js';
import type { ServiceConfig } from './config';
import { createMailServerLookup, type MailServerLookup } from './data-access/mail-server-lookup';
import type { ClientSettings } from '@spam-check/contracts';
import type { ClientSettingsStore } from '@spam-check/client-settings';
import {
  checkEmail,
  type ClientMailSettings,
  type EmailCheckDeps,
  type EmailCheckInput,
  type EmailCheckResult,
} from './domain/check-email';
import { createDisposableDomains } from './domain/disposable';
import { createOperatorList } from './domain/operator-lists';
import { VERDICT_THRESHOLDS } from './domain/scoring';
import { memoryEmailFeedback, redisEmailFeedback, type EmailFeedback } from './email-feedback';

export interface EmailChecker {
  deps: EmailCheckDeps;
  /** null when DNS checks are off. */
  mailServers: MailServerLookup | null;
  checks: Counter<'verdict' | 'entry_point'>;
  /** The calling client's compiled settings; undefined without a client id or without settings. */
  clientSettings(clientId: string | undefined): Promise<ClientMailSettings | undefined>;
  feedback: EmailFeedback;
}

const toAscii = (domain: string) => domainToASCII(domain);

function compileMailSettings(settings: ClientSettings): ClientMailSettings | undefined {
  const mail = settings.mail;
  if (!mail) return undefined;
  return {
    allow: createOperatorList(mail.allow ?? [], toAscii),
    deny: createOperatorList(mail.deny ?? [], toAscii),
    thresholds: {
      spam: mail.spam_threshold ?? VERDICT_THRESHOLDS.spam,
      suspicious: mail.suspicious_threshold ?? VERDICT_THRESHOLDS.suspicious,
    },
  };
}

/**
 * One check as every entry point runs it (HTTP, RPC, each item of a batch): with the caller's settings and
 * reports, counted, and remembered for later feedback.
 */
export async function runEmailCheck(
  checker: EmailChecker,
  input: Omit<EmailCheckInput, 'client'> & { clientId: string | undefined },
  entryPoint: 'http' | 'rpc',
): Promise<EmailCheckResult> {
  const client = await checker.clientSettings(input.clientId);
  const result = await checkEmail({ ...input, client }, checker.deps, {
    reportsOf: checker.feedback.reportsOf(input.clientId),
  });
  await checker.feedback.remember(input.clientId, input.email, result);
  checker.checks.inc({ verdict: result.verdict, entry_point: entryPoint });
  return result;
}

/** Feedback in Redis when REDIS_URL is set, else in memory (embedded mode, with a warning). */
export function createFeedbackStorage(
  config: ServiceConfig,
  logger: Logger,
): { feedback: EmailFeedback; checks: Record<string, () => Promise<void>>; closers: Closer[] } {
  const retention = config.FEEDBACK_RETENTION_SECONDS;
  if (!config.REDIS_URL) {
    logger.warn('REDIS_URL is not set: feedback is kept in memory of this process only');
    return { feedback: memoryEmailFeedback(retention, config.FEEDBACK_MAX_REPORTS), checks: {}, closers: [] };
  }
  const redis = new Redis(config.REDIS_URL, {
    maxRetriesPerRequest: 1,
    commandTimeout: 1000,
    connectTimeout: 2000,
    enableAutoPipelining: true,
  });
  redis.on('error', (error: Error) => logger.warn({ err: error }, 'redis connection error'));
  return {
    feedback: redisEmailFeedback(redis, config.EMAIL_FEEDBACK_PREFIX, retention, config.FEEDBACK_MAX_REPORTS),
    checks: { redis: async () => void (await redis.ping()) },
    closers: [
      {
        name: 'redis',
        close: async () => {
          if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
          else redis.disconnect();
        },
      },
    ],
  };
}

/** Builds what the domain function needs from the configuration: lists loaded once, the DNS lookup, metrics. */
export function createEmailChecker(
  config: ServiceConfig,
  metrics: Metrics,
  feedback: EmailFeedback = memoryEmailFeedback(
    config.FEEDBACK_RETENTION_SECONDS,
    config.FEEDBACK_MAX_REPORTS,
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
  // Compiled once per settings value read (the store keeps a value's identity while it is cached).
  const compiled = new WeakMap<ClientSettings, ClientMailSettings | undefined>();
  return {
    async clientSettings(clientId) {
      if (!settings || !clientId) return undefined;
      const value = await settings.get(clientId);
      if (!compiled.has(value)) compiled.set(value, compileMailSettings(value));
      return compiled.get(value);
    },
    deps: {
      disposableDomains: createDisposableDomains(disposableEmailBlocklist()),
      allowList: createOperatorList(config.EMAIL_ALLOW_LIST, toAscii),
      denyList: createOperatorList(config.EMAIL_DENY_LIST, toAscii),
      lookupMailServers: mailServers?.lookup ?? null,
    },
    mailServers,
    checks,
    feedback,
  };
}
