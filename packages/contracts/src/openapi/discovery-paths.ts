import { OAUTH_METADATA_PATH } from '../oauth-metadata';
import { ref } from './schemas';

/** Where OAuth clients find the token and revocation endpoints by themselves (RFC 8414). */
export function discoveryPaths() {
  return {
    [OAUTH_METADATA_PATH]: {
      get: {
        tags: ['Tokens'],
        summary: 'OAuth 2.0 authorization server metadata (RFC 8414)',
        description:
          'The issuer is the scheme and host the request reached (behind `TRUSTED_PROXY_HOPS` proxies: ' +
          '`X-Forwarded-Proto` and `X-Forwarded-Host`). The token and revocation endpoints of each language ' +
          'prefix (`/deoauth/token`, `/froauth/revoke`, ...) behave the same and answer in that language.',
        responses: {
          '200': {
            description: 'The metadata; cacheable for an hour.',
            content: { 'application/json': { schema: ref('AuthorizationServerMetadata') } },
          },
        },
      },
    },
  };
}
