import type { Messages } from '../languages';

/** Reason codes of the form context (docs/design.md, Form context), given by either detector. */
export const FORM_REASONS = {
  FORM_HONEYPOT_FILLED: {
    en: 'A hidden form field that people never see was filled in, as bots do.',
    de: 'Ein verborgenes Formularfeld, das Menschen nie sehen, wurde ausgefüllt, wie es Bots tun.',
    fr: 'Un champ de formulaire caché, que les personnes ne voient jamais, a été rempli, comme le font les robots.',
  },
  FORM_SUBMITTED_TOO_FAST: {
    en: 'The form was submitted {seconds} s after it was shown, faster than a person fills it in.',
    de: 'Das Formular wurde {seconds} s nach der Anzeige abgeschickt, schneller als ein Mensch es ausfüllt.',
    fr: "Le formulaire a été envoyé {seconds} s après son affichage, plus vite qu'une personne ne le remplit.",
  },
  FORM_BOT_USER_AGENT: {
    en: 'The form was submitted by an automation tool or crawler (user agent).',
    de: 'Das Formular wurde von einem Automatisierungswerkzeug oder Crawler abgeschickt (User-Agent).',
    fr: "Le formulaire a été envoyé par un outil d'automatisation ou un robot d'indexation (user agent).",
  },
  FORM_AUTHOR_NAME_LINK: {
    en: 'The name the author gave is a web address, as link droppers write it.',
    de: 'Der angegebene Name des Verfassers ist eine Webadresse, wie Linkspammer sie eintragen.',
    fr: "Le nom donné par l'auteur est une adresse web, comme l'écrivent les semeurs de liens.",
  },
} as const satisfies Record<string, Messages>;

export type FormReasonCode = keyof typeof FORM_REASONS;
