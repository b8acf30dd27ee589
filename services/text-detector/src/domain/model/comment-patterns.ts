import { words } from './canonical';
import { PhraseMatcher, type PhraseList } from './triggers';

/**
 * Two shapes of the spam that sites get under their posts, as features of the model:
 * - the support scam: a brand or product (printers, antivirus, mail, routers, wallets) with "support",
 *   "helpline", "customer service" and a phone number ("if your HP printer is offline, call our helpline");
 * - praise and a pivot: a generic compliment that fits any post ("Nice post", "Toller Beitrag", "Merci pour
 *   cet article"), then something to sell: a link, an address, a number, an offer or a business name
 *   ("Thanks for sharing. Cleaning Company Dubai").
 * Each part is its own token and so are their combinations, so the model weighs praise alone (common in
 * honest comments) apart from praise with a pivot. Matched on the canonical text (./canonical.ts: lower
 * case, digits as 0, links as urltok, addresses as emailtok).
 */

const SUPPORT_PHRASES = [
  '(?:tech(?:nical)? )?support (?:number|phone|team|line|service)',
  'help ?(?:line|desk)s?',
  'customer (?:service|care|support)',
  'toll[- ]?free',
  'hotline',
  'kundendienst',
  'kundenservice',
  'kundensupport',
  'technischer support',
  'service client',
  'assistance (?:technique|client)',
  'support technique',
  'numéro (?:vert|gratuit)',
];
export const SUPPORT_LIST: PhraseList = {
  name: 'support',
  phrases: SUPPORT_PHRASES,
  pattern: new RegExp(`\\b(?:${SUPPORT_PHRASES.join('|')})\\b`),
};
const SUPPORT = new PhraseMatcher([SUPPORT_LIST]);

/** Brands and products whose "support numbers" are sold in comments (whole words of the canonical text). */
const BRANDS = new Set(
  (
    'hp canon epson brother lexmark dell printer printers drucker imprimante imprimantes norton mcafee avast ' +
    'kaspersky antivirus quickbooks outlook hotmail gmail yahoo aol icloud microsoft windows roku alexa garmin ' +
    'netgear linksys router routers cashapp coinbase binance metamask paypal facebook instagram amazon'
  ).split(' '),
);

/**
 * A run of digits (0 in the canonical text) with the separators of phone numbers. Ten to fifteen digits
 * make a number: fewer are dates, order and ticket numbers.
 */
const DIGIT_RUN = /\+? ?\(?0[0 ().-]{8,24}0/g;
const PHONE_DIGITS = [10, 15] as const;

function hasPhone(text: string): boolean {
  for (const match of text.matchAll(DIGIT_RUN)) {
    let digits = 0;
    for (const character of match[0]) if (character === '0') digits++;
    if (digits >= PHONE_DIGITS[0] && digits <= PHONE_DIGITS[1]) return true;
  }
  return false;
}

const PRAISE = new RegExp(
  [
    // en
    '\\b(?:nice|great|good|awesome|excellent|informative|wonderful|amazing|useful|helpful|interesting|fantastic|superb|lovely) (?:post|article|blog|content|information|info|read|write-?up|site|website|sharing)',
    '\\bthanks? (?:you )?(?:so much |a lot )?for (?:sharing|this (?:post|article|information)|the (?:post|article|information|info))',
    '\\bi (?:really )?(?:like|love|enjoyed) (?:this|your) (?:post|article|blog|site|website)',
    '\\bkeep (?:it up|up the good work)',
    '\\bvery (?:informative|helpful|useful|nice) (?:post|article|blog)',
    // de
    '\\b(?:toller|super|guter|interessanter|schöner|informativer|klasse|spannender) (?:beitrag|artikel|blog|post|text)',
    '\\b(?:vielen )?dank für (?:den|diesen|deinen|ihren|das|die) (?:beitrag|artikel|post|tipps?|infos?|informationen|rezept)',
    '\\bsehr (?:informativ|hilfreich|interessant)(?:er)? (?:beitrag|artikel)?',
    // fr
    '\\b(?:super|excellent|très bon|bon|bel|superbe|génial|chouette) (?:article|post|blog|billet|contenu)',
    '\\bmerci (?:beaucoup )?pour (?:cet|ce|le|la|les|votre|ton) (?:article|partage|post|billet|infos?|informations|recette)',
    '\\barticle (?:très )?(?:intéressant|instructif|utile)',
  ].join('|'),
);

/** Every compliment of PRAISE has one of these words: without one, the expression is not tried. */
const PRAISE_WORDS = new Set(
  (
    'post article blog content information info infos read write writeup site website sharing thank thanks ' +
    'keep beitrag artikel text dank sehr billet contenu merci'
  ).split(' '),
);

/** Praise further in than this is part of a text, not its opening. */
const PRAISE_OPENING = 160;
const PRAISE_LENGTH = 120;

/** What turns a compliment into an advertisement when it follows one. */
const PIVOT = /\burltok\b|\bemailtok\b/;

/**
 * The support-scam tokens of a canonical text (`support`, `support+phone`, `support+brand`, ...), given its
 * tokens (`words()`) and, when the caller matched SUPPORT_LIST already, whether it matched.
 */
export function supportTokens(
  text: string,
  tokens: readonly string[] = words(text),
  support = SUPPORT.matches(text, tokens).length > 0,
): string[] {
  const brand = tokens.some((token) => BRANDS.has(token));
  const phone = (support || brand) && hasPhone(text);
  const found: string[] = [];
  if (support) found.push('support');
  if (support && phone) found.push('support+phone');
  if (support && brand) found.push('support+brand');
  if (brand && phone) found.push('brand+phone');
  if (support && brand && phone) found.push('support+brand+phone');
  return found;
}

/**
 * `praise` when the text opens with a generic compliment; `praise+pivot` when something to sell follows it
 * (a link, an address, a phone number, or one of the `offers` the caller found).
 */
export function praiseTokens(text: string, offers: readonly string[]): string[] {
  // Only the opening is searched: a compliment is at most PRAISE_LENGTH characters long.
  const opening = text.slice(0, PRAISE_OPENING + PRAISE_LENGTH);
  if (!words(opening).some((word) => PRAISE_WORDS.has(word))) return [];
  const match = PRAISE.exec(opening);
  if (!match || match.index > PRAISE_OPENING) return [];
  const rest = text.slice(match.index + match[0].length);
  const pivot =
    offers.length > 0 || PIVOT.test(rest) || hasPhone(rest) || SUPPORT.matches(rest, words(rest)).length > 0;
  return pivot ? ['praise', 'praise+pivot'] : ['praise'];
}
