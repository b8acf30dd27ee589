import { domainToASCII } from 'node:url';

/**
 * The mailbox an address stands for, as the e-mail detector's reports and erasure match it
 * (services/email-detector/src/domain/reports.ts): the lower-case local part without its `+tag` at the ASCII
 * (punycode) domain, so that an erasure of `jo@xn--exmple-cua.de` also finds the checks of `Jo+News@Exämple.de`.
 * Input that is no address (no `@`) stands for itself, lower-cased.
 */
export function mailboxOf(email: string): string {
  const trimmed = email.trim().toLowerCase();
  const at = trimmed.lastIndexOf('@');
  if (at <= 0) return trimmed;
  const local = trimmed.slice(0, at);
  const plus = local.indexOf('+');
  const domain = trimmed.slice(at + 1);
  return `${plus > 0 ? local.slice(0, plus) : local}@${domainToASCII(domain) || domain}`;
}
