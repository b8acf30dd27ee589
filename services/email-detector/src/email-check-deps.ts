import { domainToASCII } from 'node:url';
import { Counter, type Metrics } from '@spam-check/service-kit';
import { disposableEmailBlocklist } from 'disposable-email-domains-js';
import type { ServiceConfig } from './config';
import { createMailServerLookup, type MailServerLookup } from './data-access/mail-server-lookup';
import type { ClientSettings } from '@spam-check/contracts';
import type { ClientSettingsStore } from '@spam-check/client-settings';
import type { ClientMailSettings, EmailCheckDeps } from './domain/check-email';
import { createDisposableDomains } from './domain/disposable';
import { createOperatorList } from './domain/operator-lists';
import { VERDICT_THRESHOLDS } from './domain/scoring';

export interface EmailChecker {
  deps: EmailCheckDeps;
  /** null when DNS checks are off. */
  mailServers: MailServerLookup | null;
  checks: Counter<'verdict' | 'entry_point'>;
  /** The calling client's compiled settings; undefined without a client id or without settings. */
  clientSettings(clientId: string | undefined): Promise<ClientMailSettings | undefined>;
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

/** Builds what the domain function needs from the configuration: lists loaded once, the DNS lookup, metrics. */
export function createEmailChecker(
  config: ServiceConfig,
  metrics: Metrics,
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
  };
}
