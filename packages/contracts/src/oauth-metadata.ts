import { z } from 'zod';
import { CLIENT_GRANTS, CLIENT_SCOPES } from './admin';

export const OAUTH_METADATA_PATH = '/.well-known/oauth-authorization-server';

/** How clients authenticate at the token and revocation endpoints (RFC 6749 §2.3.1). */
export const CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post'] as const;

/**
 * RFC 3986 unreserved characters. Clients that put a secret into HTTP Basic without the form-encoding that
 * RFC 6749 §2.3.1 asks for (curl, Authlib and others) send a different secret when it holds `+ % : space` or
 * any other reserved character; a secret of unreserved characters reads the same both ways.
 */
export const UNRESERVED_SECRET = /^[A-Za-z0-9._~-]+$/;
export const UNRESERVED_SECRET_MESSAGE =
  'may hold only the unreserved characters A-Z a-z 0-9 - . _ ~: many HTTP Basic clients do not form-encode ' +
  'the secret (RFC 6749 §2.3.1), so + % : space and other reserved characters would reach the server changed';

/** OAuth 2.0 Authorization Server Metadata (RFC 8414) as the gateway serves it. */
export const authorizationServerMetadataSchema = z
  .object({
    issuer: z.string().describe('The scheme and host the metadata was asked at, without a path.'),
    token_endpoint: z.string(),
    revocation_endpoint: z.string(),
    grant_types_supported: z.array(z.enum(CLIENT_GRANTS)),
    scopes_supported: z.array(z.enum(CLIENT_SCOPES)),
    response_types_supported: z
      .array(z.string())
      .describe('Empty: there is no authorization endpoint (no user-facing redirect flows).'),
    token_endpoint_auth_methods_supported: z.array(z.enum(CLIENT_AUTH_METHODS)),
    revocation_endpoint_auth_methods_supported: z.array(z.enum(CLIENT_AUTH_METHODS)),
    service_documentation: z.string(),
  })
  .describe(
    'RFC 8414 metadata. Every language prefix has its own token and revocation endpoints with the same ' +
      'behaviour (`/deoauth/token`, `/froauth/revoke`, ...); the metadata names the unprefixed ones.',
  );
export type AuthorizationServerMetadata = z.infer<typeof authorizationServerMetadataSchema>;

/** The metadata of the authorization server whose public origin is `issuer` (no trailing slash). */
export function authorizationServerMetadata(issuer: string): AuthorizationServerMetadata {
  return {
    issuer,
    token_endpoint: `${issuer}/oauth/token`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    grant_types_supported: [...CLIENT_GRANTS],
    scopes_supported: [...CLIENT_SCOPES],
    response_types_supported: [],
    token_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS],
    revocation_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS],
    service_documentation: `${issuer}/docs`,
  };
}
