/**
 * What comment and forum spam sells, per family, in English, German and French: loans, casinos, pharmacy
 * and diet pills, dating and sex, and paid services (SEO, essays, cleaning, removals). Sites get these
 * under any post, and the training corpora have them almost only in English e-mail, so a German loan offer
 * ("Kredit ohne Schufa") had no word the model knew as spam. A family is one feature whatever the language,
 * so the English evidence carries over. Matched on the canonical text (./canonical.ts: lower case, digits
 * as 0), so the words are written in that form.
 */
import { words } from './canonical';
import { PhraseMatcher, type PhraseList } from './triggers';

type OfferWords = Record<'en' | 'de' | 'fr', readonly string[]>;

const OFFERS: Record<string, OfferWords> = {
  loan: {
    en: [
      '(?:personal|payday|quick|fast|instant|easy|cash) loans?',
      'loan (?:offer|lender|approval)',
      'no credit check',
      'bad credit',
      'loan at 0+ ?%',
    ],
    de: [
      'kredit ohne schufa',
      'sofortkredit\\w*',
      'schufafrei\\w*',
      'ohne schufa',
      'trotz (?:negativer )?(?:schufa|bonität)',
      'negativer bonität',
      'privatkredit\\w*',
      'kreditangebot\\w*',
      'darlehen (?:ohne|für jeden|sofort)',
    ],
    fr: [
      "prêts? (?:personnel|rapide|entre particuliers|d'argent|sans)",
      'crédits? (?:rapide|sans justificatif|entre particuliers)',
      'sans justificatifs?',
      'fichés? (?:à la )?banque de france',
      'offre de prêt',
      'rachat de crédits?',
    ],
  },
  casino: {
    en: [
      'casinos?',
      'slots? (?:games?|machines?)',
      'jackpots?',
      'sports? betting',
      'free spins',
      'no deposit bonus',
    ],
    de: [
      'online-?casinos?',
      'spielautomaten',
      'freispiele\\w*',
      'sportwetten',
      'echtgeld',
      'einzahlungsbonus',
    ],
    fr: ['casinos? en ligne', 'machines? à sous', 'paris sportifs', 'tours gratuits', 'bonus sans dépôt'],
  },
  pharma: {
    en: [
      'viagra',
      'cialis',
      'levitra',
      'kamagra',
      'tramadol',
      'xanax',
      'online pharmacy',
      'keto (?:pills?|diet pills?|gummies)',
      'weight loss (?:pills?|supplements?)',
      'erectile',
      'without (?:a )?prescription',
      'diet pills?',
    ],
    de: [
      'potenzmittel\\w*',
      'ohne rezept',
      'rezeptfrei\\w*',
      'diätpillen',
      'schlankheitspillen',
      'abnehmpillen',
    ],
    fr: [
      'sans ordonnance',
      'pharmacie en ligne',
      'pilules? (?:minceur|bleues?)',
      'dysfonction érectile',
      'perdre du poids (?:rapidement|vite|sans)',
    ],
  },
  dating: {
    en: [
      'hot (?:girls|singles|women)',
      'sexy (?:girls|women|singles)',
      'escorts?',
      'hook ?ups?',
      'dating (?:site|app)',
      'lonely (?:women|girls|housewives)',
      'meet (?:local )?singles',
      'adult (?:chat|dating|webcam)',
    ],
    de: ['sexkontakte?', 'erotik\\w*', 'heiße (?:frauen|girls|singles)', 'seitensprung\\w*', 'singles aus'],
    fr: [
      'rencontres? (?:coquines?|adultes?|sexy|discrètes?)',
      'célibataires (?:de|près)',
      'plan cul',
      'femmes? (?:chaudes|mûres)',
      'escorts?',
    ],
  },
  services: {
    en: [
      'seo (?:services?|agency|company|expert)',
      'backlinks?',
      'guest posts?',
      'essay (?:writing|writers?|help)',
      'write my (?:essay|paper|assignment)',
      'assignment help',
      'buy (?:instagram |youtube |tiktok )?(?:followers|likes|views|reviews)',
      'cleaning (?:company|services?)',
      'packers and movers',
      'web design (?:company|agency|services?)',
      'digital marketing (?:agency|company|services?)',
    ],
    de: [
      'suchmaschinenoptimierung',
      'backlinks?',
      'umzugsfirma',
      'reinigungsfirma',
      'schlüsseldienst',
      'entrümpelung',
      'gebäudereinigung',
      'hausarbeit schreiben lassen',
      'ghostwriter',
    ],
    fr: [
      'référencement (?:naturel|web|seo)',
      'agence (?:seo|web)',
      'rédaction (?:web|de mémoire)',
      'serrurier',
      'déménageurs?',
      'entreprise de nettoyage',
      'achat de (?:likes|followers|abonnés)',
    ],
  },
};

export const OFFER_PREFIX = 'offer:';

/** One phrase list per family, named `offer:<family>`. */
export const OFFER_LISTS: readonly PhraseList[] = Object.entries(OFFERS).map(([family, words]) => {
  const phrases = [...words.en, ...words.de, ...words.fr];
  return {
    name: `${OFFER_PREFIX}${family}`,
    phrases,
    pattern: new RegExp(`\\b(?:${phrases.join('|')})\\b`),
  };
});

const MATCHER = new PhraseMatcher(OFFER_LISTS);

/** The offer families a canonical text names (`offer:loan`, ...). */
export function offerTokens(text: string): string[] {
  return MATCHER.matches(text, words(text));
}
