import type { CheckStatus, EmailReasonCode } from '@spam-check/contracts';

/**
 * What DNS says about a domain's mail servers (RFC 5321 §5.1): MX records; else the implicit MX (the domain's
 * own A/AAAA); a null MX (RFC 7505, a single `0 .`) says it takes no mail. NXDOMAIN is evidence of spam; no
 * MX, A or AAAA counts against it too; a timeout or server failure is `unknown` and never held against it.
 */
export type MailServers =
  | { outcome: 'mx'; hosts: string[] }
  | { outcome: 'implicit_mx' }
  | { outcome: 'null_mx' }
  | { outcome: 'nxdomain' }
  | { outcome: 'no_mail_server' }
  | { outcome: 'unknown'; error: string };

export type LookupMailServers = (asciiDomain: string) => Promise<MailServers>;

export function judgeMailServers(servers: MailServers): {
  status: CheckStatus;
  reason: EmailReasonCode | null;
  usable: boolean;
} {
  switch (servers.outcome) {
    case 'mx':
    case 'implicit_mx':
      return { status: 'pass', reason: null, usable: true };
    case 'null_mx':
      return { status: 'fail', reason: 'EMAIL_NULL_MX', usable: false };
    case 'nxdomain':
      return { status: 'fail', reason: 'EMAIL_DOMAIN_NOT_FOUND', usable: false };
    case 'no_mail_server':
      return { status: 'fail', reason: 'EMAIL_NO_MAIL_SERVER', usable: false };
    case 'unknown':
      return { status: 'unknown', reason: 'EMAIL_DNS_UNKNOWN', usable: true };
  }
}
