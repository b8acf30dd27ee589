import { REVIEW_CONSOLE_MESSAGES } from './console-review';
import { WEBHOOK_CONSOLE_MESSAGES } from './console-webhooks';
import type { Language, Messages } from './languages';

/**
 * The words of the operator console (`/console`, docs/design.md, Console and API reference), beside the error
 * and reason catalogues it also shows, so that one place holds every message a person reads, in every
 * language.
 */
export const CONSOLE_MESSAGES = {
  title: { en: 'Spam check console', de: 'Spam-Check-Konsole', fr: 'Console Spam Check' },
  skip: { en: 'Skip to content', de: 'Zum Inhalt springen', fr: 'Aller au contenu' },
  language: { en: 'Language', de: 'Sprache', fr: 'Langue' },
  signIn: { en: 'Sign in', de: 'Anmelden', fr: 'Se connecter' },
  signInHelp: {
    en: 'Sign in with an administrator account (scope spam:admin).',
    de: 'Melden Sie sich mit einem Administratorkonto an (Scope spam:admin).',
    fr: 'Connectez-vous avec un compte administrateur (scope spam:admin).',
  },
  username: { en: 'User name', de: 'Benutzername', fr: "Nom d'utilisateur" },
  password: { en: 'Password', de: 'Passwort', fr: 'Mot de passe' },
  signInFailed: {
    en: 'Wrong user name or password, or this user may not administer.',
    de: 'Falscher Benutzername oder falsches Passwort, oder dieser Benutzer darf nicht verwalten.',
    fr: "Nom d'utilisateur ou mot de passe incorrect, ou cet utilisateur ne peut pas administrer.",
  },
  signInThrottled: {
    en: 'Too many failed sign-ins. Try again later.',
    de: 'Zu viele fehlgeschlagene Anmeldungen. Versuchen Sie es später erneut.',
    fr: 'Trop de connexions échouées. Réessayez plus tard.',
  },
  sessionEnded: {
    en: 'Your session has ended. Please sign in again.',
    de: 'Ihre Sitzung ist beendet. Bitte melden Sie sich erneut an.',
    fr: 'Votre session est terminée. Veuillez vous reconnecter.',
  },
  signedInAs: { en: 'Signed in as', de: 'Angemeldet als', fr: 'Connecté en tant que' },
  signOut: { en: 'Sign out', de: 'Abmelden', fr: 'Se déconnecter' },
  clients: { en: 'Clients', de: 'Clients', fr: 'Clients' },
  client: { en: 'Client', de: 'Client', fr: 'Client' },
  scopes: { en: 'Scopes', de: 'Scopes', fr: 'Scopes' },
  allClients: { en: 'All clients', de: 'Alle Clients', fr: 'Tous les clients' },
  traffic: { en: 'Traffic and verdicts', de: 'Verkehr und Urteile', fr: 'Trafic et verdicts' },
  byDay: { en: 'Last 7 days, by day', de: 'Letzte 7 Tage, pro Tag', fr: '7 derniers jours, par jour' },
  byHour: {
    en: 'Last 48 hours, by hour',
    de: 'Letzte 48 Stunden, pro Stunde',
    fr: '48 dernières heures, par heure',
  },
  chartLabel: {
    en: 'Checks per interval and verdict (all kinds)',
    de: 'Prüfungen pro Intervall und Urteil (alle Arten)',
    fr: 'Vérifications par intervalle et verdict (tous types)',
  },
  chartTable: {
    en: 'The chart as a table',
    de: 'Das Diagramm als Tabelle',
    fr: 'Le graphique sous forme de tableau',
  },
  start: { en: 'Start (UTC)', de: 'Beginn (UTC)', fr: 'Début (UTC)' },
  totals: { en: 'Totals', de: 'Summen', fr: 'Totaux' },
  kind: { en: 'Kind', de: 'Art', fr: 'Type' },
  mail: { en: 'E-mail', de: 'E-Mail', fr: 'E-mail' },
  text: { en: 'Text', de: 'Text', fr: 'Texte' },
  hybrid: { en: 'Hybrid', de: 'Hybrid', fr: 'Hybride' },
  ham: { en: 'Ham', de: 'Kein Spam', fr: 'Légitime' },
  suspicious: { en: 'Suspicious', de: 'Verdächtig', fr: 'Suspect' },
  spam: { en: 'Spam', de: 'Spam', fr: 'Spam' },
  latency: { en: 'Latency p50 / p99 (ms)', de: 'Latenz p50 / p99 (ms)', fr: 'Latence p50 / p99 (ms)' },
  noChecks: {
    en: 'No checks in this period.',
    de: 'Keine Prüfungen in diesem Zeitraum.',
    fr: 'Aucune vérification sur cette période.',
  },
  topReasons: { en: 'Top reasons', de: 'Häufigste Gründe', fr: 'Raisons principales' },
  reason: { en: 'Reason', de: 'Grund', fr: 'Raison' },
  count: { en: 'Count', de: 'Anzahl', fr: 'Nombre' },
  llmEndpoint: {
    en: 'LLM stage: texts go to',
    de: 'LLM-Stufe: Texte gehen an',
    fr: 'Étape LLM : les textes vont à',
  },
  llmNone: {
    en: 'LLM stage: off (no text leaves the deployment)',
    de: 'LLM-Stufe: aus (kein Text verlässt die Installation)',
    fr: 'Étape LLM : désactivée (aucun texte ne quitte l’installation)',
  },
  llmUnknown: {
    en: 'LLM stage: unknown (the text detector did not answer)',
    de: 'LLM-Stufe: unbekannt (der Text-Detektor hat nicht geantwortet)',
    fr: 'Étape LLM : inconnue (le détecteur de texte n’a pas répondu)',
  },
  recentFeedback: { en: 'Recent feedback', de: 'Neueste Rückmeldungen', fr: 'Retours récents' },
  noFeedback: {
    en: 'No feedback reports yet.',
    de: 'Noch keine Rückmeldungen.',
    fr: 'Aucun retour pour le moment.',
  },
  when: { en: 'When (UTC)', de: 'Wann (UTC)', fr: 'Quand (UTC)' },
  label: { en: 'Label', de: 'Einstufung', fr: 'Étiquette' },
  checkId: { en: 'Check id', de: 'Prüfungs-ID', fr: 'Identifiant de vérification' },
  appliedTo: { en: 'Applied to', de: 'Angewendet auf', fr: 'Appliqué à' },
  settings: { en: 'Settings', de: 'Einstellungen', fr: 'Paramètres' },
  settingsHelp: {
    en: 'An empty field is the operator default. Lists take one entry per line.',
    de: 'Ein leeres Feld ist die Voreinstellung des Betreibers. Listen: ein Eintrag pro Zeile.',
    fr: "Un champ vide prend la valeur par défaut de l'opérateur. Listes : une entrée par ligne.",
  },
  spamThreshold: { en: 'Spam threshold (0–1)', de: 'Spam-Schwelle (0–1)', fr: 'Seuil de spam (0–1)' },
  suspiciousThreshold: {
    en: 'Suspicious threshold (0–1)',
    de: 'Verdachts-Schwelle (0–1)',
    fr: 'Seuil de suspicion (0–1)',
  },
  allow: {
    en: 'Always allowed (addresses, domains)',
    de: 'Immer erlaubt (Adressen, Domains)',
    fr: 'Toujours autorisés (adresses, domaines)',
  },
  deny: {
    en: 'Always refused (addresses, domains)',
    de: 'Immer abgelehnt (Adressen, Domains)',
    fr: 'Toujours refusés (adresses, domaines)',
  },
  denyTerms: { en: 'Refused terms', de: 'Abgelehnte Begriffe', fr: 'Termes refusés' },
  llmMode: { en: 'LLM use', de: 'LLM-Nutzung', fr: 'Usage du LLM' },
  stepByStep: {
    en: 'Hybrid checks step by step',
    de: 'Hybride Prüfungen schrittweise',
    fr: 'Vérifications hybrides pas à pas',
  },
  campaigns: {
    en: 'Campaigns shared between clients',
    de: 'Kampagnen zwischen Clients',
    fr: 'Campagnes partagées entre clients',
  },
  campaignShare: {
    en: 'Share spam reports',
    de: 'Spam-Meldungen teilen',
    fr: 'Partager les signalements de spam',
  },
  campaignProtect: {
    en: 'Protect with reported campaigns',
    de: 'Durch gemeldete Kampagnen schützen',
    fr: 'Protéger par les campagnes signalées',
  },
  siteRules: {
    en: 'Site rules for texts',
    de: 'Regeln der Site für Texte',
    fr: 'Règles du site pour les textes',
  },
  allowedLanguages: {
    en: 'Allowed languages (ISO codes such as de, fr; empty: any)',
    de: 'Erlaubte Sprachen (ISO-Codes wie de, fr; leer: alle)',
    fr: 'Langues acceptées (codes ISO comme de, fr ; vide : toutes)',
  },
  maxLinks: {
    en: 'Most links in a text (empty: no limit)',
    de: 'Höchstens so viele Links pro Text (leer: unbegrenzt)',
    fr: 'Nombre maximal de liens par texte (vide : sans limite)',
  },
  operatorDefault: { en: 'Operator default', de: 'Voreinstellung', fr: 'Valeur par défaut' },
  never: { en: 'never', de: 'nie', fr: 'jamais' },
  band: { en: 'when unsure', de: 'wenn unsicher', fr: 'en cas de doute' },
  always: { en: 'always', de: 'immer', fr: 'toujours' },
  yes: { en: 'yes', de: 'ja', fr: 'oui' },
  no: { en: 'no', de: 'nein', fr: 'non' },
  save: { en: 'Save settings', de: 'Einstellungen speichern', fr: 'Enregistrer les paramètres' },
  saved: {
    en: 'Settings saved. Every replica applies them within one second.',
    de: 'Einstellungen gespeichert. Jede Instanz wendet sie binnen einer Sekunde an.',
    fr: 'Paramètres enregistrés. Chaque instance les applique en une seconde.',
  },
  notSaved: {
    en: 'Not saved: some values were not accepted.',
    de: 'Nicht gespeichert: einige Werte wurden nicht angenommen.',
    fr: 'Non enregistré : certaines valeurs ont été refusées.',
  },
  needsRedis: {
    en: 'Statistics, feedback and settings need Redis (REDIS_URL): this gateway runs in embedded mode.',
    de: 'Statistiken, Rückmeldungen und Einstellungen brauchen Redis (REDIS_URL): dieses Gateway läuft eingebettet.',
    fr: 'Statistiques, retours et paramètres nécessitent Redis (REDIS_URL) : cette passerelle tourne en mode embarqué.',
  },
  tryIt: { en: 'Try it', de: 'Ausprobieren', fr: 'Essayer' },
  tryHelp: {
    en: "Runs a check as this client, with its settings. Trials are not counted in the client's statistics.",
    de: 'Führt eine Prüfung als dieser Client mit seinen Einstellungen aus. Versuche zählen nicht in seiner Statistik.',
    fr: 'Lance une vérification en tant que ce client, avec ses paramètres. Les essais ne comptent pas dans ses statistiques.',
  },
  checkKind: { en: 'Kind of check', de: 'Art der Prüfung', fr: 'Type de vérification' },
  email: { en: 'E-mail address', de: 'E-Mail-Adresse', fr: 'Adresse e-mail' },
  titleField: { en: 'Title', de: 'Titel', fr: 'Titre' },
  subTitle: { en: 'Subtitle (optional)', de: 'Untertitel (optional)', fr: 'Sous-titre (facultatif)' },
  body: { en: 'Body', de: 'Inhalt', fr: 'Corps' },
  run: { en: 'Run check', de: 'Prüfung starten', fr: 'Lancer la vérification' },
  result: { en: 'Result', de: 'Ergebnis', fr: 'Résultat' },
  verdict: { en: 'Verdict', de: 'Urteil', fr: 'Verdict' },
  score: { en: 'Score', de: 'Wert', fr: 'Score' },
  reasons: { en: 'Reasons', de: 'Gründe', fr: 'Raisons' },
  akismetKey: { en: 'Akismet key', de: 'Akismet-Schlüssel', fr: 'Clé Akismet' },
  akismetHelp: {
    en: 'For sites with an Akismet plugin or library: a new key replaces the old one at once.',
    de: 'Für Websites mit einem Akismet-Plugin oder einer Akismet-Bibliothek: Ein neuer Schlüssel ersetzt den alten sofort.',
    fr: "Pour les sites avec une extension ou une bibliothèque Akismet : une nouvelle clé remplace l'ancienne aussitôt.",
  },
  issueAkismetKey: {
    en: 'Issue a new key',
    de: 'Neuen Schlüssel ausstellen',
    fr: 'Émettre une nouvelle clé',
  },
  revokeAkismetKey: { en: 'Revoke the key', de: 'Schlüssel widerrufen', fr: 'Révoquer la clé' },
  akismetKeyShownOnce: {
    en: 'The new key, shown this once:',
    de: 'Der neue Schlüssel, nur dieses eine Mal angezeigt:',
    fr: 'La nouvelle clé, affichée cette seule fois :',
  },
  akismetKeyRevoked: {
    en: 'The key is revoked.',
    de: 'Der Schlüssel ist widerrufen.',
    fr: 'La clé est révoquée.',
  },
  ...WEBHOOK_CONSOLE_MESSAGES,
  ...REVIEW_CONSOLE_MESSAGES,
} as const satisfies Record<string, Messages>;

export type ConsoleMessageKey = keyof typeof CONSOLE_MESSAGES;
export const CONSOLE_MESSAGE_KEYS = Object.keys(CONSOLE_MESSAGES) as ConsoleMessageKey[];

export function consoleMessage(key: ConsoleMessageKey, language: Language): string {
  return CONSOLE_MESSAGES[key][language];
}
