import type { Rule } from './types';
import { gradedWeight, REASON_WEIGHTS } from './weights';

/**
 * Contact-me-elsewhere: a messenger named next to a number or handle, or an explicit invitation to write
 * elsewhere, in German, French and English; and cryptocurrency wallet addresses (Bitcoin legacy and bech32,
 * Ethereum, Tron).
 */

const MESSENGER =
  /\b(?:whats ?app|telegram|signal|wechat|viber|kik|snapchat|snap|icq|skype|line id|threema|discord)\b/gi;
const PHONE = /(?:\+|\b00|\b0)\d[\d ()./-]{6,18}\d\b/g;
const HANDLE = /(?:^|\s)@[a-z0-9_]{3,32}\b|\bt\.me\/[a-z0-9_]{3,32}/gi;
const INVITATION = new RegExp(
  [
    // en
    String.raw`\b(?:contact|text|message|write|call|add|dm|ping|reach) (?:me|us) (?:on|at|via|through|directly|privately)\b`,
    String.raw`\b(?:add|find|follow) me on\b`,
    String.raw`\bfor more (?:info|information|details),? (?:contact|text|message|call|write)\b`,
    // de
    String.raw`\b(?:schreib|schreibt|schreiben sie|kontaktier|kontaktiere|kontaktieren sie|melde dich|meldet euch|ruf|ruft|ruf mich|adde) (?:mir|mich|uns|bei mir|bei uns)?\s?(?:auf|über|per|unter|bei)\b`,
    String.raw`\b(?:privat|direkt) (?:anschreiben|schreiben|kontaktieren)\b`,
    // fr
    String.raw`\b(?:contactez|contacte|écrivez|écris|ecrivez|ecris|appelez|appelle|ajoutez|ajoute)[- ]?(?:moi|nous)\b`,
    String.raw`\b(?:me|nous) (?:contacter|joindre|écrire|ecrire) (?:sur|par|via|au)\b`,
  ].join('|'),
  'i',
);
const WALLETS =
  /\b(?:bc1[02-9ac-hj-np-z]{25,59}|[13][1-9A-HJ-NP-Za-km-z]{25,34}|0x[0-9a-fA-F]{40}|T[1-9A-HJ-NP-Za-km-z]{33})\b/g;
const HAS_LETTER_AND_DIGIT = /(?=.*\d)(?=.*[a-zA-Z])/;

export const contactRule: Rule = ({ text }) => {
  const messengers = text.match(MESSENGER)?.length ?? 0;
  const phones = text.match(PHONE)?.length ?? 0;
  const handles = text.match(HANDLE)?.length ?? 0;
  const invitation = INVITATION.test(text);
  let wallets = 0;
  for (const match of text.matchAll(WALLETS)) {
    // Long all-letter words and plain hex-free numbers are not addresses.
    if (HAS_LETTER_AND_DIGIT.test(match[0].slice(0, 64))) wallets++;
  }
  const findings: ReturnType<Rule>['findings'] = [];
  // Two kinds of evidence: an invitation, and a messenger named with a number or handle.
  const contactEvidence = (invitation ? 1 : 0) + (messengers > 0 && (phones > 0 || handles > 0) ? 1 : 0);
  if (contactEvidence > 0) {
    const weight = gradedWeight(REASON_WEIGHTS.TEXT_CONTACT_ELSEWHERE, contactEvidence);
    findings.push({ code: 'TEXT_CONTACT_ELSEWHERE', weight });
  }
  if (wallets > 0) findings.push({ code: 'TEXT_CRYPTO_WALLET', weight: REASON_WEIGHTS.TEXT_CRYPTO_WALLET });
  return { findings, signals: { messengers, phone_numbers: phones, crypto_wallets: wallets } };
};
