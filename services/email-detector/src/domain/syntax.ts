import { domainToASCII, domainToUnicode } from 'node:url';

/**
 * Address syntax: the RFC 5321 `Mailbox` (what a mail server accepts in RCPT TO), extended by RFC 6531 for
 * UTF-8, with these practical decisions (README "Syntax"):
 * - only surrounding spaces and tabs are trimmed (form input); a control character anywhere, also a leading
 *   or trailing CR, LF or NUL, is `control_character` (docs/design.md, Checks and verdicts: header
 *   injection); any other whitespace is invalid;
 * - local part: dot-atom or a quoted string (RFC 5321 §4.1.2), never mixed; UTF-8 allowed except controls,
 *   format characters (zero-width, bidi), separators, surrogates, private-use and unassigned code points;
 *   an empty quoted string is refused; case is kept (RFC 5321 §2.4), NFC-normalized in `normalized`;
 * - no comments or folding white space (RFC 5322 CFWS is not part of an SMTP mailbox);
 * - no address literals (`[192.0.2.1]`, `[IPv6:…]`): valid RFC syntax, but no person's address;
 * - domain: at least two labels, LDH labels of 1..63 octets after IDNA (UTS #46, punycode), an alphabetic
 *   or punycode top-level label, no trailing dot;
 * - limits: local part 64 octets, whole address 254 octets (RFC 5321 §4.5.3.1, RFC 3696 erratum 1690),
 *   counted in UTF-8 on the normalized local part (needless quotes dropped) and the ASCII domain.
 */
export type SyntaxFailure =
  | 'control_character'
  | 'empty'
  | 'too_long'
  | 'local_part_too_long'
  | 'missing_at'
  | 'empty_local_part'
  | 'invalid_local_part'
  | 'unterminated_quoted_string'
  | 'forbidden_character'
  | 'comment_not_accepted'
  | 'address_literal_not_accepted'
  | 'empty_domain'
  | 'invalid_domain'
  | 'domain_not_fully_qualified'
  | 'invalid_top_level_domain'
  | 'domain_too_long'
  | 'label_too_long';

export interface ParsedAddress {
  valid: true;
  /** The local part as written (quoted or not), NFC-normalized; a needlessly quoted one is unquoted. */
  localPart: string;
  /** Lower-case local part without a `+tag`, for role, fixture and random checks. */
  localBase: string;
  /** Lower-cased Unicode form of the domain. */
  domain: string;
  /** The domain in ASCII (punycode) form. */
  asciiDomain: string;
  normalized: string;
}

export interface InvalidAddress {
  valid: false;
  failure: SyntaxFailure;
}

const MAX_LOCAL_PART_OCTETS = 64;
const MAX_ADDRESS_OCTETS = 254;
const MAX_DOMAIN_OCTETS = 253;

const ATOM = "[A-Za-z0-9!#$%&'*+\\-/=?^_`{|}~\\u0080-\\u{10FFFF}]+";
const DOT_ATOM = new RegExp(`^${ATOM}(?:\\.${ATOM})*$`, 'u');
const QUOTED_CONTENT = /^(?:[\x20\x21\x23-\x5b\x5d-\x7e\u0080-\u{10FFFF}]|\\[\x20-\x7e])*$/u;
const CONTROL = /\p{Cc}/u;
const FORBIDDEN = /[\p{Cc}\p{Cf}\p{Z}\p{Cs}\p{Co}\p{Cn}]/u;
const NON_ASCII = /[\u0080-\u{10FFFF}]/u;
const ASCII_DOMAIN_CHARS = /^[A-Za-z0-9.-]+$/;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const TOP_LEVEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;
const encoder = new TextEncoder();

function octets(value: string): number {
  return NON_ASCII.test(value) ? encoder.encode(value).length : value.length;
}

/** Trims spaces and tabs only, by index: a `[ \t]+$` regex would be quadratic on long runs of blanks. */
function trimBlanks(value: string): string {
  const blank = (index: number) => value[index] === ' ' || value[index] === '\t';
  let start = 0;
  let end = value.length;
  while (start < end && blank(start)) start += 1;
  while (end > start && blank(end - 1)) end -= 1;
  return value.slice(start, end);
}

function invalid(failure: SyntaxFailure): InvalidAddress {
  return { valid: false, failure };
}

/** Splits off the local part; a quoted one may hold `@`, so it is scanned to its closing quote. */
function splitAddress(address: string): { local: string; quoted: boolean; domain: string } | SyntaxFailure {
  if (address.startsWith('"')) {
    let index = 1;
    while (index < address.length && address[index] !== '"') index += address[index] === '\\' ? 2 : 1;
    if (index >= address.length) return 'unterminated_quoted_string';
    if (address[index + 1] !== '@') return address.includes('@') ? 'invalid_local_part' : 'missing_at';
    return { local: address.slice(0, index + 1), quoted: true, domain: address.slice(index + 2) };
  }
  const at = address.lastIndexOf('@');
  if (at < 0) return 'missing_at';
  return { local: address.slice(0, at), quoted: false, domain: address.slice(at + 1) };
}

function parseLocalPart(
  local: string,
  quoted: boolean,
): { localPart: string; plain: string } | SyntaxFailure {
  if (!quoted) {
    if (local.length === 0) return 'empty_local_part';
    if (local.includes('(') || local.includes(')')) return 'comment_not_accepted';
    if (!DOT_ATOM.test(local)) return 'invalid_local_part';
    const localPart = local.normalize('NFC');
    return { localPart, plain: localPart };
  }
  const content = local.slice(1, -1);
  if (content.length === 0) return 'empty_local_part';
  if (!QUOTED_CONTENT.test(content)) return 'invalid_local_part';
  const plain = content.replace(/\\(.)/g, '$1').normalize('NFC');
  const localPart = DOT_ATOM.test(plain) ? plain : `"${plain.replace(/["\\]/g, '\\$&')}"`;
  return { localPart, plain };
}

function parseDomain(raw: string): { domain: string; asciiDomain: string } | SyntaxFailure {
  if (raw.length === 0) return 'empty_domain';
  if (raw.startsWith('[')) return 'address_literal_not_accepted';
  if (raw.includes('(') || raw.includes(')')) return 'comment_not_accepted';
  if (FORBIDDEN.test(raw)) return 'forbidden_character';
  const nonAscii = NON_ASCII.test(raw);
  // The URL host parser behind domainToASCII would percent-decode and accept `_`: only LDH may be ASCII.
  const asciiPart = nonAscii ? raw.replace(/[\u0080-\u{10FFFF}]/gu, '') : raw;
  if (asciiPart.length > 0 && !ASCII_DOMAIN_CHARS.test(asciiPart)) return 'invalid_domain';
  const lower = raw.toLowerCase();
  const asciiDomain = nonAscii || lower.includes('xn--') ? domainToASCII(lower) : lower;
  if (asciiDomain.length === 0) return 'invalid_domain';
  if (asciiDomain.length > MAX_DOMAIN_OCTETS) return 'domain_too_long';
  const labels = asciiDomain.split('.');
  if (labels.length < 2) return 'domain_not_fully_qualified';
  for (const label of labels) {
    if (label.length > 63) return 'label_too_long';
    if (!LABEL.test(label)) return 'invalid_domain';
  }
  if (!TOP_LEVEL.test(labels[labels.length - 1] ?? '')) return 'invalid_top_level_domain';
  const domain = nonAscii || asciiDomain.includes('xn--') ? domainToUnicode(asciiDomain) : asciiDomain;
  return { domain, asciiDomain };
}

/** Parses an address as entered by a user; see the rules above. Never throws. */
export function parseAddress(input: string): ParsedAddress | InvalidAddress {
  const address = trimBlanks(input);
  if (CONTROL.test(address)) return invalid('control_character');
  if (address.length === 0) return invalid('empty');
  if (address.length > MAX_ADDRESS_OCTETS) return invalid('too_long');
  if (!address.startsWith('"') && FORBIDDEN.test(address)) return invalid('forbidden_character');

  const parts = splitAddress(address);
  if (typeof parts === 'string') return invalid(parts);
  const local = parseLocalPart(parts.local, parts.quoted);
  if (typeof local === 'string') return invalid(local);
  if (FORBIDDEN.test(local.plain.replace(/ /g, ''))) return invalid('forbidden_character');
  const domain = parseDomain(parts.domain);
  if (typeof domain === 'string') return invalid(domain);

  if (octets(local.localPart) > MAX_LOCAL_PART_OCTETS) return invalid('local_part_too_long');
  if (octets(local.localPart) + 1 + domain.asciiDomain.length > MAX_ADDRESS_OCTETS)
    return invalid('too_long');

  const base = local.plain.toLowerCase();
  const plus = base.indexOf('+');
  return {
    valid: true,
    localPart: local.localPart,
    localBase: plus > 0 ? base.slice(0, plus) : base,
    domain: domain.domain,
    asciiDomain: domain.asciiDomain,
    normalized: `${local.localPart}@${domain.domain}`,
  };
}
