import type { Messages } from './languages';

/** The console's words for a client's Review page (part of the console catalogue, `console.ts`). */
export const REVIEW_CONSOLE_MESSAGES = {
  review: { en: 'Review', de: 'Durchsicht', fr: 'Revue' },
  reviewHelp: {
    en: 'The checks of this client, newest first. A correction is the client’s own report: it is learnt at once for this client.',
    de: 'Die Prüfungen dieses Clients, neueste zuerst. Eine Korrektur ist die Meldung des Clients selbst: Sie wird für diesen Client sofort gelernt.',
    fr: 'Les vérifications de ce client, les plus récentes d’abord. Une correction est le signalement du client lui-même : elle est apprise aussitôt pour ce client.',
  },
  reviewKeys: {
    en: 'Keys: j / k next and previous check, s spam, h not spam, u undo.',
    de: 'Tasten: j / k nächste und vorige Prüfung, s Spam, h kein Spam, u rückgängig.',
    fr: 'Touches : j / k vérification suivante et précédente, s spam, h pas du spam, u annuler.',
  },
  markSpam: { en: 'Spam', de: 'Spam', fr: 'Spam' },
  markHam: { en: 'Not spam', de: 'Kein Spam', fr: 'Pas du spam' },
  undo: { en: 'Undo', de: 'Rückgängig', fr: 'Annuler' },
  selected: { en: 'Selected checks', de: 'Ausgewählte Prüfungen', fr: 'Vérifications sélectionnées' },
  selectAll: { en: 'Select all', de: 'Alle auswählen', fr: 'Tout sélectionner' },
  select: { en: 'Select', de: 'Auswählen', fr: 'Sélectionner' },
  filters: { en: 'Filters', de: 'Filter', fr: 'Filtres' },
  showChecks: { en: 'Show', de: 'Anzeigen', fr: 'Afficher' },
  any: { en: 'any', de: 'alle', fr: 'tous' },
  reported: { en: 'Reported', de: 'Gemeldet', fr: 'Signalé' },
  reportedYes: { en: 'reported', de: 'gemeldet', fr: 'signalés' },
  reportedNo: { en: 'not reported', de: 'nicht gemeldet', fr: 'non signalés' },
  since: { en: 'From (UTC)', de: 'Ab (UTC)', fr: 'Depuis (UTC)' },
  until: { en: 'Before (UTC)', de: 'Vor (UTC)', fr: 'Avant (UTC)' },
  perPage: { en: 'Per page', de: 'Pro Seite', fr: 'Par page' },
  content: { en: 'Content', de: 'Inhalt', fr: 'Contenu' },
  report: { en: 'Report', de: 'Meldung', fr: 'Signalement' },
  checkedNow: { en: 'A new check now', de: 'Neue Prüfung jetzt', fr: 'Nouvelle vérification' },
  noContentKept: {
    en: 'nothing kept to check again',
    de: 'nichts zum erneuten Prüfen aufbewahrt',
    fr: 'rien de conservé à revérifier',
  },
  correct: { en: 'Correct', de: 'Korrigieren', fr: 'Corriger' },
  noReviewChecks: {
    en: 'No checks on this page.',
    de: 'Keine Prüfungen auf dieser Seite.',
    fr: 'Aucune vérification sur cette page.',
  },
  olderChecks: { en: 'Older checks', de: 'Ältere Prüfungen', fr: 'Vérifications plus anciennes' },
  newestChecks: { en: 'Newest checks', de: 'Neueste Prüfungen', fr: 'Vérifications les plus récentes' },
  reportsApplied: { en: 'Reports applied:', de: 'Angewendete Meldungen:', fr: 'Signalements appliqués :' },
  reportsRefused: { en: 'refused:', de: 'abgelehnt:', fr: 'refusés :' },
  nothingSelected: {
    en: 'Select at least one check.',
    de: 'Wählen Sie mindestens eine Prüfung aus.',
    fr: 'Sélectionnez au moins une vérification.',
  },
} as const satisfies Record<string, Messages>;
