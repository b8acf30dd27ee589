import type { Messages } from '../languages';

/** Reason codes of the e-mail detector. Messages may hold `{name}` placeholders filled from reason params. */
export const EMAIL_REASONS = {
  EMAIL_INVALID_SYNTAX: {
    en: 'The address is not a syntactically valid e-mail address.',
    de: 'Die Adresse ist syntaktisch keine gültige E-Mail-Adresse.',
    fr: "L'adresse n'est pas une adresse e-mail syntaxiquement valide.",
  },
  EMAIL_CONTROL_CHARACTERS: {
    en: 'The address contains control characters (such as line breaks), a header injection technique.',
    de: 'Die Adresse enthält Steuerzeichen (etwa Zeilenumbrüche), eine Technik der Header-Injection.',
    fr: "L'adresse contient des caractères de contrôle (comme des sauts de ligne), une technique d'injection d'en-têtes.",
  },
  EMAIL_DISPOSABLE_DOMAIN: {
    en: 'The domain {domain} provides disposable (throw-away) mailboxes.',
    de: 'Die Domain {domain} bietet Wegwerf-Postfächer an.',
    fr: 'Le domaine {domain} fournit des boîtes aux lettres jetables.',
  },
  EMAIL_ROLE_ACCOUNT: {
    en: 'The address is a role account ({local}), not a person.',
    de: 'Die Adresse ist ein Funktionspostfach ({local}), keine Person.',
    fr: "L'adresse est un compte de fonction ({local}), pas une personne.",
  },
  EMAIL_FREE_PROVIDER: {
    en: 'The address is at a free mail provider ({domain}).',
    de: 'Die Adresse liegt bei einem kostenlosen Mail-Anbieter ({domain}).',
    fr: "L'adresse est chez un fournisseur de messagerie gratuit ({domain}).",
  },
  EMAIL_DOMAIN_TYPO: {
    en: 'The domain looks like a typo; did you mean {suggestion}?',
    de: 'Die Domain sieht nach einem Tippfehler aus; meinten Sie {suggestion}?',
    fr: 'Le domaine semble mal saisi ; vouliez-vous dire {suggestion} ?',
  },
  EMAIL_RANDOM_LOCAL_PART: {
    en: 'The part before the @ looks randomly generated.',
    de: 'Der Teil vor dem @ wirkt zufällig erzeugt.',
    fr: 'La partie avant le @ semble générée au hasard.',
  },
  EMAIL_DOMAIN_NOT_FOUND: {
    en: 'The domain {domain} does not exist (NXDOMAIN).',
    de: 'Die Domain {domain} existiert nicht (NXDOMAIN).',
    fr: "Le domaine {domain} n'existe pas (NXDOMAIN).",
  },
  EMAIL_NULL_MX: {
    en: 'The domain {domain} declares that it accepts no mail (null MX, RFC 7505).',
    de: 'Die Domain {domain} erklärt, keine E-Mails anzunehmen (Null-MX, RFC 7505).',
    fr: "Le domaine {domain} déclare n'accepter aucun e-mail (MX nul, RFC 7505).",
  },
  EMAIL_NO_MAIL_SERVER: {
    en: 'The domain {domain} has no mail server (no MX, A or AAAA record).',
    de: 'Die Domain {domain} hat keinen Mailserver (kein MX-, A- oder AAAA-Eintrag).',
    fr: "Le domaine {domain} n'a aucun serveur de messagerie (pas d'enregistrement MX, A ou AAAA).",
  },
  EMAIL_DNS_UNKNOWN: {
    en: 'The mail servers of {domain} could not be checked (DNS timeout or failure); not held against the address.',
    de: 'Die Mailserver von {domain} konnten nicht geprüft werden (DNS-Zeitüberschreitung oder -Fehler); das zählt nicht gegen die Adresse.',
    fr: "Les serveurs de messagerie de {domain} n'ont pas pu être vérifiés (délai ou erreur DNS) ; cela ne compte pas contre l'adresse.",
  },
  EMAIL_DENY_LISTED: {
    en: 'The address or its domain is on the operator deny list.',
    de: 'Die Adresse oder ihre Domain steht auf der Sperrliste des Betreibers.',
    fr: "L'adresse ou son domaine figure sur la liste de blocage de l'opérateur.",
  },
  EMAIL_ALLOW_LISTED: {
    en: 'The address or its domain is on the operator allow list.',
    de: 'Die Adresse oder ihre Domain steht auf der Freigabeliste des Betreibers.',
    fr: "L'adresse ou son domaine figure sur la liste d'autorisation de l'opérateur.",
  },
  EMAIL_CLIENT_DENY_LISTED: {
    en: "The address or its domain is on this client's deny list.",
    de: 'Die Adresse oder ihre Domain steht auf der Sperrliste dieses Clients.',
    fr: 'L’adresse ou son domaine figure sur la liste de blocage de ce client.',
  },
  EMAIL_CLIENT_ALLOW_LISTED: {
    en: "The address or its domain is on this client's allow list.",
    de: 'Die Adresse oder ihre Domain steht auf der Freigabeliste dieses Clients.',
    fr: 'L’adresse ou son domaine figure sur la liste d’autorisation de ce client.',
  },
  EMAIL_TEST_FIXTURE: {
    en: 'This is a documented test address with a fixed verdict.',
    de: 'Dies ist eine dokumentierte Testadresse mit festem Ergebnis.',
    fr: "Il s'agit d'une adresse de test documentée au verdict fixe.",
  },
  EMAIL_REPORTED_SPAM: {
    en: 'You reported this address as spam; your report decides.',
    de: 'Sie haben diese Adresse als Spam gemeldet; Ihre Meldung entscheidet.',
    fr: 'Vous avez signalé cette adresse comme spam ; votre signalement décide.',
  },
  EMAIL_REPORTED_HAM: {
    en: 'You reported this address as legitimate; your report decides.',
    de: 'Sie haben diese Adresse als legitim gemeldet; Ihre Meldung entscheidet.',
    fr: 'Vous avez signalé cette adresse comme légitime ; votre signalement décide.',
  },
  EMAIL_CAMPAIGN: {
    en: 'This address or its domain was reported as spam by {clients} sites of this service.',
    de: 'Diese Adresse oder ihre Domain wurde von {clients} Sites dieses Dienstes als Spam gemeldet.',
    fr: 'Cette adresse ou son domaine a été signalé comme spam par {clients} sites de ce service.',
  },
} as const satisfies Record<string, Messages>;

export type EmailReasonCode = keyof typeof EMAIL_REASONS;
