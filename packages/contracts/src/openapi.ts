import { SUPPORTED_LANGUAGES } from './languages';
import { REASON_CATALOGUE } from './reasons';
import { adminPaths } from './openapi/admin-paths';
import { publicPaths } from './openapi/public-paths';
import { siteRulesPaths } from './openapi/site-rules-paths';
import { componentSchemas } from './openapi/schemas';

function apiInfo(version: string) {
  return {
    title: 'Spam check API',
    version,
    description: [
      'Decides whether an e-mail address, a text, or both are spam, and explains why.',
      'Every path may be preceded by a language code: `/deapi/v1/spam/mail` or `/de/api/v1/spam/mail`;',
      'the language picks the language of human-readable messages. Unknown prefixes are 404.',
      "A site's server gets its token with `grant_type=client_credentials` (no user, no refresh token).",
      'Checks may carry the form `context` (`honeypot`, `seconds_to_submit`, `user_agent`, `form_type`,',
      '`author_name`, `author_url`): a filled honeypot is spam (`FORM_HONEYPOT_FILLED`), a submission faster',
      'than the configured minimum (`FORM_SUBMITTED_TOO_FAST`), from an automation user agent',
      '(`FORM_BOT_USER_AGENT`) or with a web address as the author name (`FORM_AUTHOR_NAME_LINK`) at least',
      'suspicious; an unknown context field is a 400; the context is never stored.',
      `Reason codes: ${Object.keys(REASON_CATALOGUE).join(', ')}.`,
    ].join(' '),
  };
}

function apiTags() {
  return [
    { name: 'Checks', description: 'Verdicts on an e-mail address, a text, or both (scope `spam:check`).' },
    { name: 'Batch checks', description: 'Up to 1,000 addresses or 100 texts in one request.' },
    {
      name: 'Feedback',
      description: 'Report a wrong verdict; learnt at once, for the reporting client only.',
    },
    {
      name: 'Review',
      description:
        "The client's recent checks, to review and correct them (with Feedback, one or many at once).",
    },
    {
      name: 'Tokens',
      description:
        'OAuth 2.0 password and refresh_token grants (form-encoded) for confidential first-party clients; ' +
        'revocation (RFC 7009). "Authorize" on this page uses the password grant.',
    },
    {
      name: 'Site rules',
      description:
        "The calling client's own rules for its texts (scope `spam:check`): they only make its verdicts stricter.",
    },
    { name: 'Administration', description: 'Clients, their settings and usage (scope `spam:admin`).' },
  ];
}

const OAUTH_SCOPES = {
  'spam:check': 'Run checks.',
  'spam:admin': 'Manage clients, their settings, and read their usage (the admin API).',
};

function apiComponents() {
  return {
    schemas: componentSchemas(),
    parameters: {
      RequestId: {
        name: 'X-Request-Id',
        in: 'header',
        required: false,
        description: 'Correlation id; generated when absent and always echoed in the response.',
        schema: { type: 'string', maxLength: 128 },
      },
      StepByStep: {
        name: 'X-Internal-Step-By-Step',
        in: 'header',
        required: false,
        description:
          'true/1/yes/on: e-mail first, text only if the e-mail is not spam. false/0/no/off/empty: both at once.',
        schema: { type: 'string' },
      },
    },
    securitySchemes: {
      oauth2: {
        type: 'oauth2',
        // Both grants the token endpoint serves to a client that holds a secret: a user's (password) and a
        // site's server's (client credentials), so /docs "try it" works for either.
        flows: {
          password: { tokenUrl: '/oauth/token', refreshUrl: '/oauth/token', scopes: OAUTH_SCOPES },
          clientCredentials: { tokenUrl: '/oauth/token', scopes: OAUTH_SCOPES },
        },
      },
    },
  };
}

/** The OpenAPI 3.1 document of the public API, generated from the zod schemas of this package. */
export function buildOpenApiDocument(version = '1.0.0') {
  return {
    openapi: '3.1.0',
    info: apiInfo(version),
    tags: apiTags(),
    servers: [{ url: '/' }, ...SUPPORTED_LANGUAGES.map((language) => ({ url: `/${language}` }))],
    paths: { ...publicPaths(), ...siteRulesPaths(), ...adminPaths() },
    components: apiComponents(),
  };
}
