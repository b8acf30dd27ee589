import type { Language, Messages } from './languages';

interface ErrorEntry {
  status: number;
  title: Messages;
  detail: Messages;
}

/**
 * The closed catalogue of problem codes (RFC 9457 `code` extension). A code is stable once published:
 * clients branch on it, humans read `detail`.
 */
export const ERROR_CATALOGUE = {
  MALFORMED_JSON: {
    status: 400,
    title: { en: 'Malformed JSON', de: 'Fehlerhaftes JSON', fr: 'JSON mal formé' },
    detail: {
      en: 'The request body is not valid JSON.',
      de: 'Der Anfragerumpf ist kein gültiges JSON.',
      fr: "Le corps de la requête n'est pas un JSON valide.",
    },
  },
  VALIDATION_FAILED: {
    status: 400,
    title: { en: 'Validation failed', de: 'Validierung fehlgeschlagen', fr: 'Échec de la validation' },
    detail: {
      en: 'One or more fields are missing or invalid; see errors.',
      de: 'Ein oder mehrere Felder fehlen oder sind ungültig; siehe errors.',
      fr: 'Un ou plusieurs champs sont absents ou invalides ; voir errors.',
    },
  },
  INVALID_HEADER: {
    status: 400,
    title: { en: 'Invalid header', de: 'Ungültiger Header', fr: 'En-tête invalide' },
    detail: {
      en: 'A request header has a value that is not accepted.',
      de: 'Ein Header der Anfrage hat einen nicht zulässigen Wert.',
      fr: "Un en-tête de la requête a une valeur qui n'est pas acceptée.",
    },
  },
  MALFORMED_REQUEST: {
    status: 400,
    title: { en: 'Malformed request', de: 'Fehlerhafte Anfrage', fr: 'Requête mal formée' },
    detail: {
      en: 'The request is not valid HTTP/1.1 and was not read; the connection is closed.',
      de: 'Die Anfrage ist kein gültiges HTTP/1.1 und wurde nicht gelesen; die Verbindung wird geschlossen.',
      fr: "La requête n'est pas du HTTP/1.1 valide et n'a pas été lue ; la connexion est fermée.",
    },
  },
  UNAUTHORIZED: {
    status: 401,
    title: {
      en: 'Authentication required',
      de: 'Authentifizierung erforderlich',
      fr: 'Authentification requise',
    },
    detail: {
      en: 'Send a bearer access token in the Authorization header.',
      de: 'Senden Sie ein Bearer-Zugriffstoken im Authorization-Header.',
      fr: "Envoyez un jeton d'accès Bearer dans l'en-tête Authorization.",
    },
  },
  INVALID_TOKEN: {
    status: 401,
    title: { en: 'Invalid token', de: 'Ungültiges Token', fr: 'Jeton invalide' },
    detail: {
      en: 'The access token is invalid, expired or revoked.',
      de: 'Das Zugriffstoken ist ungültig, abgelaufen oder widerrufen.',
      fr: "Le jeton d'accès est invalide, expiré ou révoqué.",
    },
  },
  INSUFFICIENT_SCOPE: {
    status: 403,
    title: { en: 'Insufficient scope', de: 'Unzureichender Scope', fr: 'Portée insuffisante' },
    detail: {
      en: 'The access token does not grant the scope this endpoint requires.',
      de: 'Das Zugriffstoken gewährt nicht den Scope, den dieser Endpunkt verlangt.',
      fr: "Le jeton d'accès n'accorde pas la portée exigée par ce point d'accès.",
    },
  },
  SESSION_REQUIRED: {
    status: 401,
    title: { en: 'Sign-in required', de: 'Anmeldung erforderlich', fr: 'Connexion requise' },
    detail: {
      en: 'This console request needs a session: sign in first (the session may have expired or ended).',
      de: 'Diese Konsolenanfrage braucht eine Sitzung: bitte zuerst anmelden (sie kann abgelaufen oder beendet sein).',
      fr: 'Cette requête de la console exige une session : connectez-vous d’abord (elle a pu expirer ou se terminer).',
    },
  },
  CSRF_REJECTED: {
    status: 403,
    title: { en: 'Request refused', de: 'Anfrage abgelehnt', fr: 'Requête refusée' },
    detail: {
      en: "A console change must come from the console's own page: its Origin or form token did not match.",
      de: 'Eine Änderung in der Konsole muss von ihrer eigenen Seite kommen: Origin oder Formular-Token passten nicht.',
      fr: 'Une modification de la console doit venir de sa propre page : l’Origin ou le jeton du formulaire ne correspondait pas.',
    },
  },
  NOT_FOUND: {
    status: 404,
    title: { en: 'Not found', de: 'Nicht gefunden', fr: 'Introuvable' },
    detail: {
      en: 'There is no resource at this path (or the language prefix is not configured).',
      de: 'Unter diesem Pfad gibt es keine Ressource (oder das Sprachpräfix ist nicht konfiguriert).',
      fr: "Aucune ressource à ce chemin (ou le préfixe de langue n'est pas configuré).",
    },
  },
  CLIENT_NOT_FOUND: {
    status: 404,
    title: { en: 'Client not found', de: 'Client nicht gefunden', fr: 'Client introuvable' },
    detail: {
      en: 'There is no client with this id.',
      de: 'Es gibt keinen Client mit dieser ID.',
      fr: "Il n'existe aucun client avec cet identifiant.",
    },
  },
  CHECK_NOT_FOUND: {
    status: 404,
    title: { en: 'Check not found', de: 'Prüfung nicht gefunden', fr: 'Vérification introuvable' },
    detail: {
      en: 'There is no check with this id for your client: unknown, expired or made by another client.',
      de: 'Für Ihren Client gibt es keine Prüfung mit dieser ID: unbekannt, abgelaufen oder von einem anderen Client.',
      fr: 'Aucune vérification de votre client ne porte cet identifiant : inconnue, expirée ou faite par un autre client.',
    },
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    title: { en: 'Method not allowed', de: 'Methode nicht erlaubt', fr: 'Méthode non autorisée' },
    detail: {
      en: 'This path does not accept the request method; see the Allow header.',
      de: 'Dieser Pfad akzeptiert die Anfragemethode nicht; siehe Allow-Header.',
      fr: "Ce chemin n'accepte pas cette méthode ; voir l'en-tête Allow.",
    },
  },
  REQUEST_TIMEOUT: {
    status: 408,
    title: {
      en: 'Request timeout',
      de: 'Zeitüberschreitung der Anfrage',
      fr: "Délai d'attente de la requête dépassé",
    },
    detail: {
      en: 'The request headers or body did not arrive in time; the connection is closed.',
      de: 'Header oder Rumpf der Anfrage kamen nicht rechtzeitig an; die Verbindung wird geschlossen.',
      fr: 'Les en-têtes ou le corps de la requête ne sont pas arrivés à temps ; la connexion est fermée.',
    },
  },
  CLIENT_EXISTS: {
    status: 409,
    title: { en: 'Client exists', de: 'Client existiert bereits', fr: 'Le client existe déjà' },
    detail: {
      en: 'A client with this id exists already; rotate its secret or choose another id.',
      de: 'Ein Client mit dieser ID existiert bereits; erneuern Sie sein Geheimnis oder wählen Sie eine andere ID.',
      fr: 'Un client avec cet identifiant existe déjà ; renouvelez son secret ou choisissez un autre identifiant.',
    },
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    title: { en: 'Payload too large', de: 'Anfrage zu groß', fr: 'Requête trop volumineuse' },
    detail: {
      en: 'The request body exceeds the size limit.',
      de: 'Der Anfragerumpf überschreitet die Größenbegrenzung.',
      fr: 'Le corps de la requête dépasse la taille maximale.',
    },
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    title: {
      en: 'Unsupported media type',
      de: 'Nicht unterstützter Medientyp',
      fr: 'Type de média non pris en charge',
    },
    detail: {
      en: 'Send the request body as application/json.',
      de: 'Senden Sie den Anfragerumpf als application/json.',
      fr: 'Envoyez le corps de la requête en application/json.',
    },
  },
  UNSUPPORTED_CONTENT_ENCODING: {
    status: 415,
    title: {
      en: 'Unsupported content encoding',
      de: 'Nicht unterstützte Inhaltskodierung',
      fr: 'Codage de contenu non pris en charge',
    },
    detail: {
      en: 'Send the request body without Content-Encoding (identity); compressed bodies are not accepted.',
      de: 'Senden Sie den Anfragerumpf ohne Content-Encoding (identity); komprimierte Rümpfe werden nicht angenommen.',
      fr: 'Envoyez le corps de la requête sans Content-Encoding (identity) ; les corps compressés ne sont pas acceptés.',
    },
  },
  RATE_LIMITED: {
    status: 429,
    title: { en: 'Too many requests', de: 'Zu viele Anfragen', fr: 'Trop de requêtes' },
    detail: {
      en: 'The rate limit was exceeded; retry after the time in Retry-After.',
      de: 'Das Anfragelimit wurde überschritten; versuchen Sie es nach Retry-After erneut.',
      fr: 'La limite de requêtes est dépassée ; réessayez après le délai indiqué par Retry-After.',
    },
  },
  HEADERS_TOO_LARGE: {
    status: 431,
    title: {
      en: 'Request headers too large',
      de: 'Anfrage-Header zu groß',
      fr: 'En-têtes de requête trop volumineux',
    },
    detail: {
      en: 'The request headers exceed the size limit; the connection is closed.',
      de: 'Die Header der Anfrage überschreiten die Größenbegrenzung; die Verbindung wird geschlossen.',
      fr: 'Les en-têtes de la requête dépassent la taille maximale ; la connexion est fermée.',
    },
  },
  INTERNAL_ERROR: {
    status: 500,
    title: { en: 'Internal error', de: 'Interner Fehler', fr: 'Erreur interne' },
    detail: {
      en: 'An unexpected error occurred; quote the request id when reporting it.',
      de: 'Ein unerwarteter Fehler ist aufgetreten; nennen Sie die Request-ID bei einer Meldung.',
      fr: "Une erreur inattendue s'est produite ; indiquez l'identifiant de requête en la signalant.",
    },
  },
  BAD_DETECTOR_RESPONSE: {
    status: 502,
    title: {
      en: 'Bad detector response',
      de: 'Ungültige Detektor-Antwort',
      fr: 'Réponse de détecteur invalide',
    },
    detail: {
      en: 'A detector returned an answer that is not a valid result.',
      de: 'Ein Detektor hat eine Antwort geliefert, die kein gültiges Ergebnis ist.',
      fr: "Un détecteur a renvoyé une réponse qui n'est pas un résultat valide.",
    },
  },
  SERVICE_UNAVAILABLE: {
    status: 503,
    title: { en: 'Service unavailable', de: 'Dienst nicht verfügbar', fr: 'Service indisponible' },
    detail: {
      en: 'A service this request depends on is unavailable; retry after the time in Retry-After.',
      de: 'Ein benötigter Dienst ist nicht verfügbar; versuchen Sie es nach Retry-After erneut.',
      fr: 'Un service requis est indisponible ; réessayez après le délai indiqué par Retry-After.',
    },
  },
  DETECTOR_TIMEOUT: {
    status: 504,
    title: {
      en: 'Detector timeout',
      de: 'Zeitüberschreitung des Detektors',
      fr: "Délai d'attente du détecteur dépassé",
    },
    detail: {
      en: 'A detector did not answer in time.',
      de: 'Ein Detektor hat nicht rechtzeitig geantwortet.',
      fr: 'Un détecteur n’a pas répondu à temps.',
    },
  },
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;
export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

export function errorStatus(code: ErrorCode): number {
  return ERROR_CATALOGUE[code].status;
}

/** The problem `type` URI: points into the API reference served by the gateway. */
export function problemType(code: ErrorCode): string {
  return `/docs#error-${code}`;
}

export function errorMessages(code: ErrorCode, language: Language): { title: string; detail: string } {
  const entry = ERROR_CATALOGUE[code];
  return { title: entry.title[language], detail: entry.detail[language] };
}
