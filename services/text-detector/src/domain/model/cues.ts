/**
 * Cue families: evidence the rules also look at, as features the model weighs, with the words of each
 * family per language. Matched on the canonical text (lower case, digits as 0, links as urltok), so the
 * words are written in that form. A cue is the family, not the language: a German and an English
 * promotion light up the same feature, which is how English evidence carries over to German and French.
 */
type CueWords = Record<'en' | 'de' | 'fr', readonly string[]>;

const FAMILIES: Record<string, CueWords> = {
  promo: {
    en: [
      'check (?:out )?(?:my|our|this|it)',
      'my (?:new )?(?:channel|video|music|song|page|site|website|blog|profile)',
      'subscrib',
      'follow (?:me|us)',
      'visit (?:my|our)',
      'like (?:and|&) (?:share|subscribe)',
      'share (?:this|it)',
    ],
    de: ['abonnier', 'meinen kanal', 'folgt mir', 'besucht meine'],
    fr: ['abonnez', 'abonne-toi', 'ma chaîne', 'suivez-moi'],
  },
  money: {
    en: ['[$€£]', 'free', 'win', 'won', 'winner', 'prize', 'cash', 'money', 'earn', 'income', 'offer'],
    de: ['gratis', 'kostenlos', 'geld', 'verdien', 'angebot', 'rabatt', 'gewinn', 'gewonnen', 'kredit'],
    fr: ['gratuit', 'argent', 'gagne', 'offre', 'crédit', 'gagnant', 'remise'],
  },
  urgency: {
    en: ['urgent', 'now', 'today', 'limited', 'immediately', 'expires?', 'hurry', 'last chance'],
    de: ['sofort', 'jetzt', 'dringend', 'heute', 'umgehend'],
    fr: ['maintenant', 'immédiatement', 'urgence', 'urgent', 'vite'],
  },
  action: {
    en: ['click', 'call', 'txt', 'text', 'reply', 'order', 'buy', 'sign up', 'register', 'join', 'download'],
    de: ['klick', 'kaufen', 'bestellen', 'besuche', 'antworten sie', 'kontaktieren sie'],
    fr: ['cliquez', 'achetez', 'commandez', 'visitez', 'répondez', 'contactez'],
  },
};

const SHARED_WORDS: Record<string, readonly string[]> = {
  money: ['promo', 'bonus', 'discount', 'loan'],
  action: ['claim', 'visit', 'go to'],
};

/** Promotion phrases match as prefixes (`subscrib` for subscribe, subscribed); the other families as words. */
function pattern(family: string, words: readonly string[]): RegExp {
  const symbols = words.filter((word) => word.startsWith('['));
  const plain = words.filter((word) => !word.startsWith('['));
  const end = family === 'promo' ? '' : '\\b';
  return new RegExp([...symbols, `\\b(?:${plain.join('|')})${end}`].join('|'));
}

export const CUES: readonly (readonly [string, RegExp])[] = Object.entries(FAMILIES).map(
  ([family, byLanguage]) =>
    [
      family,
      pattern(family, [
        ...byLanguage.en,
        ...byLanguage.de,
        ...byLanguage.fr,
        ...(SHARED_WORDS[family] ?? []),
      ]),
    ] as const,
);
