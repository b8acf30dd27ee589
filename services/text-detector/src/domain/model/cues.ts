/**
 * Cue families: evidence the rules also look at, as features the model weighs, with the words of each
 * family per language. Matched on the canonical text (lower case, digits as 0, links as urltok), so the
 * words are written in that form. A cue is the family, not the language: a German and an English
 * promotion light up the same feature, which is how English evidence carries over to German and French.
 */
import type { PhraseList } from './triggers';

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
  account: {
    en: [
      'password',
      'passcode',
      'log ?in',
      'sign ?in',
      'verif(?:y|ication)',
      'credentials',
      'mailbox',
      'wallet',
      'unusual (?:activity|sign-?in)',
      'security alert',
      'account (?:is |has been |was )?(?:suspended|locked|limited|blocked|closed|deactivated|restricted)',
      '(?:confirm|update|verify) your (?:account|identity|details|information)',
    ],
    de: [
      'passwort',
      'kennwort',
      'anmeld(?:en|ung)',
      'einloggen',
      'verifizier\\w*',
      'zugangsdaten',
      'postfach',
      'konto (?:wurde |ist )?(?:gesperrt|eingeschränkt|deaktiviert)',
      'ungewöhnliche aktivität',
    ],
    fr: [
      'mot de passe',
      'identifiants?',
      'connectez-vous',
      'vérifi\\w*',
      'boîte (?:mail|aux lettres)',
      'compte (?:a été |est )?(?:suspendu|bloqué|désactivé|restreint)',
      'activité inhabituelle',
    ],
  },
  payment: {
    en: [
      'invoice',
      'payment',
      'refund',
      'billing',
      'receipt',
      'transaction',
      'wire transfer',
      'bank (?:account|details|transfer)',
      'credit card',
      'gift card',
      'overdue',
    ],
    de: [
      'rechnung',
      'zahlung',
      'überweisung',
      'berweisung',
      'rückerstattung',
      'bankverbindung',
      'kreditkarte',
      'mahnung',
    ],
    fr: [
      'facture',
      'paiement',
      'virement',
      'remboursement',
      'coordonnées bancaires',
      'carte bancaire',
      'impay\\w*',
    ],
  },
  delivery: {
    en: ['package', 'parcel', 'delivery', 'shipment', 'tracking', 'courier', 'customs'],
    de: ['paket', 'sendung', 'lieferung', 'zustellung', 'sendungsverfolgung', 'zoll'],
    fr: ['colis', 'livraison', 'expédition', 'douane'],
  },
  fortune: {
    en: [
      'beneficiar(?:y|ies)',
      'inheritance',
      'donation',
      'next of kin',
      'compensation',
      'lucrative',
      'millions?',
      'lottery',
      'barrister',
      'deceased',
      'charity',
      'business proposal',
      'unclaimed',
      'congratulations',
      'reward',
      'sweepstakes',
      'giveaway',
    ],
    de: [
      'erbschaft',
      'nachlass',
      'spende',
      'begünstigte\\w*',
      'millionen?',
      'lotterie',
      'verstorben\\w*',
      'darlehen',
      'wohltätig\\w*',
      'glückwunsch',
      'belohnung',
      'gewinnspiel',
    ],
    fr: [
      'héritage',
      'donation',
      'bénéficiaire',
      'millions?',
      'loterie',
      'décéd\\w*',
      'caritati\\w*',
      'félicitations',
      'récompense',
      'tirage au sort',
    ],
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

export const CUES: readonly PhraseList[] = Object.entries(FAMILIES).map(([family, byLanguage]) => {
  const phrases = [...byLanguage.en, ...byLanguage.de, ...byLanguage.fr, ...(SHARED_WORDS[family] ?? [])];
  return { name: family, phrases, pattern: pattern(family, phrases) };
});
