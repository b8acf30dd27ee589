import { oauthErrorDescription, type Language, type OAuthErrorCode } from '@spam-check/contracts';
import type { ServerResponse } from 'node:http';
import { sendJson } from '@spam-check/service-kit';

/** Public, localized error descriptions; the library's own (English, internal) message only goes to logs. */
const DESCRIPTIONS = {
  invalid_request: {
    en: 'The request is missing a parameter or has an invalid one',
    de: 'Der Anfrage fehlt ein Parameter oder ein Parameter ist ungültig',
    fr: 'Il manque un paramètre à la requête ou un paramètre est invalide',
  },
  form_required: {
    en: 'This endpoint takes an application/x-www-form-urlencoded body (RFC 6749), not JSON',
    de: 'Dieser Endpunkt erwartet einen application/x-www-form-urlencoded-Rumpf (RFC 6749), kein JSON',
    fr: 'Ce point d’accès attend un corps application/x-www-form-urlencoded (RFC 6749), pas du JSON',
  },
  repeated_parameter: {
    en: 'A parameter was sent more than once',
    de: 'Ein Parameter wurde mehrfach gesendet',
    fr: 'Un paramètre a été envoyé plusieurs fois',
  },
  invalid_client: {
    en: 'Client authentication failed',
    de: 'Die Client-Authentifizierung ist fehlgeschlagen',
    fr: 'L’authentification du client a échoué',
  },
  invalid_grant: {
    en: 'The credentials or the refresh token are invalid, expired or revoked',
    de: 'Die Zugangsdaten oder das Refresh-Token sind ungültig, abgelaufen oder widerrufen',
    fr: 'Les identifiants ou le jeton de rafraîchissement sont invalides, expirés ou révoqués',
  },
  refresh_reused: {
    en: 'The refresh token was already used; every token of this grant has been revoked',
    de: 'Das Refresh-Token wurde bereits verwendet; alle Tokens dieser Autorisierung wurden widerrufen',
    fr: 'Le jeton de rafraîchissement a déjà été utilisé ; tous les jetons de cette autorisation ont été révoqués',
  },
  unauthorized_client: {
    en: 'This client is not allowed to use this grant type or endpoint',
    de: 'Dieser Client darf diesen Grant-Typ bzw. Endpunkt nicht verwenden',
    fr: 'Ce client n’est pas autorisé à utiliser ce type d’autorisation ou ce point d’accès',
  },
  unsupported_grant_type: {
    en: 'The grant type is not supported; use password or refresh_token',
    de: 'Der Grant-Typ wird nicht unterstützt; verwenden Sie password oder refresh_token',
    fr: 'Le type d’autorisation n’est pas pris en charge ; utilisez password ou refresh_token',
  },
  invalid_scope: {
    en: 'The requested scope is invalid or exceeds what may be granted',
    de: 'Der angeforderte Scope ist ungültig oder übersteigt das Erlaubte',
    fr: 'La portée demandée est invalide ou dépasse ce qui peut être accordé',
  },
  one_client_method: {
    en: 'Client credentials were sent both as HTTP Basic and in the body; use one method (RFC 6749 section 2.3)',
    de: 'Client-Zugangsdaten wurden sowohl per HTTP Basic als auch im Rumpf gesendet; verwenden Sie nur eine Methode (RFC 6749 Abschnitt 2.3)',
    fr: 'Les identifiants du client ont été envoyés en HTTP Basic et dans le corps ; utilisez une seule méthode (RFC 6749 section 2.3)',
  },
  too_many_attempts: {
    en: 'Too many failed attempts; retry after the time in Retry-After',
    de: 'Zu viele fehlgeschlagene Versuche; versuchen Sie es nach Retry-After erneut',
    fr: 'Trop de tentatives échouées ; réessayez après le délai indiqué par Retry-After',
  },
  temporarily_unavailable: {
    en: 'The token store is unavailable; retry after the time in Retry-After',
    de: 'Der Token-Speicher ist nicht verfügbar; versuchen Sie es nach Retry-After erneut',
    fr: 'Le stockage des jetons est indisponible ; réessayez après le délai indiqué par Retry-After',
  },
} satisfies Record<string, Record<Language, string>>;

export type DescriptionKey = keyof typeof DESCRIPTIONS;
export const DESCRIPTION_KEYS = Object.keys(DESCRIPTIONS) as DescriptionKey[];

export interface OAuthFailure {
  status: number;
  error: OAuthErrorCode;
  description: DescriptionKey;
  /** Appended to the description (e.g. the name of the missing parameter). */
  detail?: string;
  headers?: Record<string, string>;
}

function describe(key: DescriptionKey, language: Language): string {
  return DESCRIPTIONS[key][language];
}

export const BASIC_CHALLENGE = 'Basic realm="spam-check", charset="UTF-8"';

/** The `error_description` as sent: localized, then folded to the characters RFC 6749 §5.2 allows. */
export function errorDescription(failure: Pick<OAuthFailure, 'description' | 'detail'>, language: Language) {
  const text = describe(failure.description, language);
  return oauthErrorDescription(failure.detail ? `${text}: ${failure.detail}` : text);
}

/** RFC 6749 §5.2 error body; never cached. */
export function sendOAuthError(res: ServerResponse, failure: OAuthFailure, language: Language): void {
  sendJson(
    res,
    failure.status,
    { error: failure.error, error_description: errorDescription(failure, language) },
    { 'Cache-Control': 'no-store', Pragma: 'no-cache', ...failure.headers },
  );
}

/**
 * Brute-force refusal. RFC 6749 §5.2 has no code for it (`slow_down` belongs to the device grant, RFC 8628):
 * the code is `invalid_request`, the status 429 and Retry-After say what happened and when to retry.
 */
export function tooManyAttempts(retryAfterSeconds: number): OAuthFailure {
  return {
    status: 429,
    error: 'invalid_request',
    description: 'too_many_attempts',
    headers: { 'Retry-After': String(retryAfterSeconds) },
  };
}
