import { domainToASCII } from 'node:url';
import { Counter, type Metrics } from '@spam-check/service-kit';
import { disposableEmailBlocklist } from 'disposable-email-domains-js';
import type { ServiceConfig } from './config';
import { createMailServerLookup, type MailServerLookup } from './data-access/mail-server-lookup';
import type { EmailCheckDeps } from './domain/check-email';
import { createDisposableDomains } from './domain/disposable';
import { createOperatorList } from './domain/operator-lists';

export interface EmailChecker {
  deps: EmailCheckDeps;
  /** null when DNS checks are off. */
  mailServers: MailServerLookup | null;
  checks: Counter<'verdict' | 'entry_point'>;
}

/** Builds what the domain function needs from the configuration: lists loaded once, the DNS lookup, metrics. */
export function createEmailChecker(config: ServiceConfig, metrics: Metrics): EmailChecker {
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
  const toAscii = (domain: string) => domainToASCII(domain);
  return {
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
