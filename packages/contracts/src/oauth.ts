import { z } from 'zod';

export const DEFAULT_SCOPE = 'spam:check';

/** RFC 6749 §5.1 successful token response. */
export const tokenResponseSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int().positive(),
  /** Absent when the client is not registered for the refresh_token grant. */
  refresh_token: z.string().optional(),
  scope: z.string(),
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

export const OAUTH_ERROR_CODES = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'temporarily_unavailable',
] as const;
export type OAuthErrorCode = (typeof OAUTH_ERROR_CODES)[number];

/** RFC 6749 §5.2 error response (the token and revocation endpoints do not use problem details). */
export const oauthErrorSchema = z.object({
  error: z.enum(OAUTH_ERROR_CODES),
  error_description: z.string().optional(),
});
export type OAuthError = z.infer<typeof oauthErrorSchema>;

const TRANSLITERATIONS: Record<string, string> = {
  ä: 'ae',
  ö: 'oe',
  ü: 'ue',
  Ä: 'Ae',
  Ö: 'Oe',
  Ü: 'Ue',
  ß: 'ss',
  æ: 'ae',
  Æ: 'Ae',
  œ: 'oe',
  Œ: 'Oe',
  '\u2018': "'",
  '\u2019': "'",
  '\u201c': "'",
  '\u201d': "'",
  '«': "'",
  '»': "'",
  '"': "'",
  '\\': '/',
  '\u00a0': ' ',
  '\u202f': ' ',
  '\u2013': '-',
  '\u2014': '-',
  '\u2026': '...',
};

/**
 * RFC 6749 §5.2 allows only %x20-21 / %x23-5B / %x5D-7E in `error_description`: localized text is
 * transliterated to ASCII (German umlauts as ae/oe/ue, accents dropped, typographic quotes and spaces made
 * plain) and anything still outside that set becomes `?`.
 */
export function oauthErrorDescription(text: string): string {
  return Array.from(text, (c) => TRANSLITERATIONS[c] ?? c)
    .join('')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x21\x23-\x5B\x5D-\x7E]/g, '?');
}

/** RFC 6749 §4.3.2, §4.4.2 and §6 request bodies (form-encoded). */
export const tokenRequestSchema = z.discriminatedUnion('grant_type', [
  z.object({
    grant_type: z.literal('password'),
    username: z.string(),
    password: z.string(),
    scope: z.string().optional(),
    client_id: z.string().optional(),
    client_secret: z.string().optional(),
  }),
  z.object({
    grant_type: z.literal('client_credentials'),
    scope: z.string().optional(),
    client_id: z.string().optional(),
    client_secret: z.string().optional(),
  }),
  z.object({
    grant_type: z.literal('refresh_token'),
    refresh_token: z.string(),
    scope: z.string().optional(),
    client_id: z.string().optional(),
    client_secret: z.string().optional(),
  }),
]);

/** RFC 7009 revocation request. */
export const revokeRequestSchema = z.object({
  token: z.string(),
  token_type_hint: z.enum(['access_token', 'refresh_token']).optional(),
  client_id: z.string().optional(),
  client_secret: z.string().optional(),
});

/** RFC 7662 introspection response as the auth service gives it to the gateway. */
export const introspectionSchema = z.union([
  z.object({ active: z.literal(false) }),
  z.object({
    active: z.literal(true),
    scope: z.string(),
    client_id: z.string(),
    /** Absent for a client_credentials token (no user: the client acts as itself). */
    username: z.string().optional(),
    token_type: z.literal('Bearer'),
    exp: z.number().int(),
    iat: z.number().int(),
  }),
]);
export type Introspection = z.infer<typeof introspectionSchema>;
