import type { Messages } from '../languages';

/** Reason codes of the text detector. Messages may hold `{name}` placeholders filled from reason params. */
export const TEXT_REASONS = {
  TEXT_LINKS: {
    en: 'The text contains {count} link(s).',
    de: 'Der Text enthält {count} Link(s).',
    fr: 'Le texte contient {count} lien(s).',
  },
  TEXT_LINK_DENSITY: {
    en: 'Links make up a large part of the text.',
    de: 'Links machen einen großen Teil des Textes aus.',
    fr: 'Les liens représentent une grande partie du texte.',
  },
  TEXT_URL_SHORTENER: {
    en: 'The text uses a URL shortener that hides the real destination.',
    de: 'Der Text nutzt einen URL-Kürzer, der das eigentliche Ziel verbirgt.',
    fr: 'Le texte utilise un raccourcisseur d’URL qui masque la vraie destination.',
  },
  TEXT_OBFUSCATION: {
    en: 'Words are disguised with look-alike, hidden or separated characters.',
    de: 'Wörter sind durch ähnlich aussehende, versteckte oder getrennte Zeichen verschleiert.',
    fr: 'Des mots sont déguisés par des caractères ressemblants, cachés ou séparés.',
  },
  TEXT_CONTACT_ELSEWHERE: {
    en: 'The text asks readers to make contact elsewhere (messenger, phone or e-mail).',
    de: 'Der Text fordert dazu auf, anderswo Kontakt aufzunehmen (Messenger, Telefon oder E-Mail).',
    fr: 'Le texte invite à prendre contact ailleurs (messagerie, téléphone ou e-mail).',
  },
  TEXT_CRYPTO_WALLET: {
    en: 'The text contains a cryptocurrency wallet address.',
    de: 'Der Text enthält eine Kryptowährungs-Wallet-Adresse.',
    fr: 'Le texte contient une adresse de portefeuille de cryptomonnaie.',
  },
  TEXT_SHOUTING: {
    en: 'Much of the text is written in capital letters or exclamation marks.',
    de: 'Ein großer Teil des Textes besteht aus Großbuchstaben oder Ausrufezeichen.',
    fr: "Une grande partie du texte est écrite en majuscules ou en points d'exclamation.",
  },
  TEXT_REPETITION: {
    en: 'The text repeats the same words or characters many times.',
    de: 'Der Text wiederholt dieselben Wörter oder Zeichen sehr oft.',
    fr: 'Le texte répète de nombreuses fois les mêmes mots ou caractères.',
  },
  TEXT_MODEL_SPAM: {
    en: 'The statistical model rates the text as spam (probability {probability}).',
    de: 'Das statistische Modell stuft den Text als Spam ein (Wahrscheinlichkeit {probability}).',
    fr: 'Le modèle statistique classe le texte comme spam (probabilité {probability}).',
  },
  TEXT_MODEL_HAM: {
    en: 'The statistical model rates the text as legitimate (spam probability {probability}).',
    de: 'Das statistische Modell stuft den Text als legitim ein (Spam-Wahrscheinlichkeit {probability}).',
    fr: 'Le modèle statistique classe le texte comme légitime (probabilité de spam {probability}).',
  },
  TEXT_MODEL_UNFAMILIAR: {
    en: 'The text is in a language or form the statistical model was not trained on, so the model alone does not decide spam.',
    de: 'Der Text ist in einer Sprache oder Form, auf die das statistische Modell nicht trainiert wurde; das Modell allein entscheidet daher nicht auf Spam.',
    fr: "Le texte est dans une langue ou une forme sur laquelle le modèle statistique n'a pas été entraîné ; le modèle seul ne conclut donc pas au spam.",
  },
  TEXT_LLM_SPAM: {
    en: 'The language model rates the text as spam: {reason}',
    de: 'Das Sprachmodell stuft den Text als Spam ein: {reason}',
    fr: 'Le modèle de langage classe le texte comme spam : {reason}',
  },
  TEXT_LLM_HAM: {
    en: 'The language model rates the text as legitimate: {reason}',
    de: 'Das Sprachmodell stuft den Text als legitim ein: {reason}',
    fr: 'Le modèle de langage classe le texte comme légitime : {reason}',
  },
  TEXT_LLM_UNAVAILABLE: {
    en: 'The language model was not available; the verdict comes from the local stages only.',
    de: 'Das Sprachmodell war nicht verfügbar; das Ergebnis stammt nur aus den lokalen Stufen.',
    fr: "Le modèle de langage n'était pas disponible ; le verdict provient des seules étapes locales.",
  },
  TEXT_DENY_LISTED: {
    en: 'The text contains a term on the operator deny list.',
    de: 'Der Text enthält einen Begriff von der Sperrliste des Betreibers.',
    fr: "Le texte contient un terme de la liste de blocage de l'opérateur.",
  },
  TEXT_CLIENT_DENY_LISTED: {
    en: "The text contains a term on this client's deny list.",
    de: 'Der Text enthält einen Begriff von der Sperrliste dieses Clients.',
    fr: 'Le texte contient un terme de la liste de blocage de ce client.',
  },
  TEXT_TEST_FIXTURE: {
    en: 'This is a documented test text with a fixed verdict.',
    de: 'Dies ist ein dokumentierter Testtext mit festem Ergebnis.',
    fr: "Il s'agit d'un texte de test documenté au verdict fixe.",
  },
  TEXT_REPORTED_SPAM: {
    en: 'You reported this text, or a near-duplicate of it, as spam; your report decides.',
    de: 'Sie haben diesen Text oder einen fast gleichen als Spam gemeldet; Ihre Meldung entscheidet.',
    fr: 'Vous avez signalé ce texte, ou un texte presque identique, comme spam ; votre signalement décide.',
  },
  TEXT_REPORTED_HAM: {
    en: 'You reported this text, or a near-duplicate of it, as legitimate; your report decides.',
    de: 'Sie haben diesen Text oder einen fast gleichen als legitim gemeldet; Ihre Meldung entscheidet.',
    fr: 'Vous avez signalé ce texte, ou un texte presque identique, comme légitime ; votre signalement décide.',
  },
  TEXT_CLIENT_MODEL: {
    en: 'What your earlier reports taught about similar texts changed the verdict (score {before} without them).',
    de: 'Was Ihre früheren Meldungen über ähnliche Texte gelehrt haben, hat das Ergebnis geändert (Score {before} ohne sie).',
    fr: 'Ce que vos signalements antérieurs ont appris sur des textes semblables a changé le verdict (score {before} sans eux).',
  },
  TEXT_CAMPAIGN: {
    en: 'A campaign of near-duplicates of this text was reported as spam by {clients} sites of this service.',
    de: 'Eine Kampagne fast gleicher Texte wurde von {clients} Sites dieses Dienstes als Spam gemeldet.',
    fr: 'Une campagne de textes presque identiques a été signalée comme spam par {clients} sites de ce service.',
  },
  TEXT_LANGUAGE_NOT_ALLOWED: {
    en: 'The text is written in a language this site does not take ({language}; allowed: {allowed}).',
    de: 'Der Text ist in einer Sprache geschrieben, die diese Site nicht annimmt ({language}; erlaubt: {allowed}).',
    fr: "Le texte est écrit dans une langue que ce site n'accepte pas ({language} ; acceptées : {allowed}).",
  },
  TEXT_TOO_MANY_LINKS: {
    en: 'The text holds {count} link(s), more than the {max} this site allows.',
    de: 'Der Text enthält {count} Link(s), mehr als die {max}, die diese Site erlaubt.',
    fr: 'Le texte contient {count} lien(s), plus que les {max} que ce site autorise.',
  },
} as const satisfies Record<string, Messages>;

export type TextReasonCode = keyof typeof TEXT_REASONS;
