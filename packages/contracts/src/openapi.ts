import { z } from 'zod';
import {
  adminActionSchema,
  adminClientSchema,
  recentFeedbackSchema,
  clientListSchema,
  clientSettingsAnswerSchema,
  clientSettingsSchema,
  clientStatsSchema,
  clientWithSecretSchema,
  createClientRequestSchema,
} from './admin';
import { ERROR_CATALOGUE, type ErrorCode } from './errors';
import { SUPPORTED_LANGUAGES } from './languages';
import { oauthErrorSchema, revokeRequestSchema, tokenRequestSchema, tokenResponseSchema } from './oauth';
import { problemSchema } from './problem';
import { REASON_CATALOGUE } from './reasons';
import { erasureResultSchema, erasureSchemas } from './erasure';
import { feedbackResultSchema, feedbackSchemas } from './feedback';
import { BATCH_LIMITS, batchSchemas, mailBatchResultSchema, textBatchResultSchema } from './batch';
import { requestSchemas } from './requests';
import {
  webhookDeliveriesSchema,
  webhookPayloadSchema,
  webhookSecretRotationSchema,
  webhookTestAnswerSchema,
} from './webhooks';
import { hybridResultSchema, mailResultSchema, reasonSchema, textResultSchema } from './results';

const NAMED_SCHEMAS = {
  MailCheckRequest: requestSchemas.mail,
  TextCheckRequest: requestSchemas.text,
  HybridCheckRequest: requestSchemas.hybrid,
  MailResult: mailResultSchema,
  TextResult: textResultSchema,
  HybridResult: hybridResultSchema,
  FeedbackRequest: feedbackSchemas.request,
  FeedbackResult: feedbackResultSchema,
  MailBatchRequest: batchSchemas.mail.request,
  TextBatchRequest: batchSchemas.text.request,
  MailBatchResult: mailBatchResultSchema,
  TextBatchResult: textBatchResultSchema,
  Reason: reasonSchema,
  Problem: problemSchema,
  TokenRequest: tokenRequestSchema,
  TokenResponse: tokenResponseSchema,
  RevokeRequest: revokeRequestSchema,
  OAuthError: oauthErrorSchema,
  ClientSettings: clientSettingsSchema,
  CreateClientRequest: createClientRequestSchema,
  AdminClient: adminClientSchema,
  ClientList: clientListSchema,
  ClientWithSecret: clientWithSecretSchema,
  ClientStats: clientStatsSchema,
  AdminAction: adminActionSchema,
  RecentFeedback: recentFeedbackSchema,
  ErasureRequest: erasureSchemas.request,
  ErasureResult: erasureResultSchema,
  ClientSettingsAnswer: clientSettingsAnswerSchema,
  WebhookSecretRotation: webhookSecretRotationSchema,
  WebhookDeliveries: webhookDeliveriesSchema,
  WebhookTestAnswer: webhookTestAnswerSchema,
  WebhookPayload: webhookPayloadSchema,
} satisfies Record<string, z.ZodType>;

type SchemaName = keyof typeof NAMED_SCHEMAS;

function componentSchemas(): Record<string, unknown> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(NAMED_SCHEMAS)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io: 'input',
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: 'any',
  });
  for (const schema of Object.values(schemas)) delete (schema as { $schema?: string }).$schema;
  return schemas;
}

const ref = (name: SchemaName) => ({ $ref: `#/components/schemas/${name}` });

function problemResponse(codes: ErrorCode[]) {
  return {
    description: codes.map((code) => `\`${code}\`: ${ERROR_CATALOGUE[code].detail.en}`).join(' '),
    content: { 'application/problem+json': { schema: ref('Problem') } },
  };
}

const CHECK_ERRORS: Record<string, ErrorCode[]> = {
  '400': ['MALFORMED_JSON', 'VALIDATION_FAILED', 'INVALID_HEADER', 'MALFORMED_REQUEST'],
  '401': ['UNAUTHORIZED', 'INVALID_TOKEN'],
  '403': ['INSUFFICIENT_SCOPE'],
  '404': ['NOT_FOUND'],
  '405': ['METHOD_NOT_ALLOWED'],
  '408': ['REQUEST_TIMEOUT'],
  '413': ['PAYLOAD_TOO_LARGE'],
  '415': ['UNSUPPORTED_MEDIA_TYPE', 'UNSUPPORTED_CONTENT_ENCODING'],
  '429': ['RATE_LIMITED'],
  '431': ['HEADERS_TOO_LARGE'],
  '502': ['BAD_DETECTOR_RESPONSE'],
  '503': ['SERVICE_UNAVAILABLE'],
  '504': ['DETECTOR_TIMEOUT'],
};

const BATCH_DESCRIPTION = [
  'Results come in request order. An invalid item gets `{error: <problem>}` (`VALIDATION_FAILED`) and the',
  'others are still checked. Each item counts as one request against the rate limit: when the window has',
  'room for only some items, the first ones are checked, the rest get `{error}` with `RATE_LIMITED` and the',
  'answer carries `Retry-After`; with no room at all the answer is 429. The body may be up to',
  '`MAX_BATCH_BODY_BYTES` (default 8 MiB; 413 above); no items or too many items: 400.',
].join(' ');

const HAM_TEXT = {
  title: 'Opening hours',
  body: 'When does the library open on Saturday? spam-check-test-ham',
};

/**
 * The request bodies "try it" starts from at `/docs`: the documented test fixtures (e-mail detector and text
 * detector READMEs), so a first call gives a known verdict and a report changes nothing.
 */
const REQUEST_EXAMPLES = {
  MailCheckRequest: { email: 'spam@spam-check.test' },
  TextCheckRequest: HAM_TEXT,
  HybridCheckRequest: { email: 'ham@spam-check.test', ...HAM_TEXT },
  FeedbackRequest: { email: 'spam@spam-check.test', label: 'ham' },
  MailBatchRequest: { emails: ['spam@spam-check.test', 'suspicious@spam-check.test', 'ham@spam-check.test'] },
  TextBatchRequest: { items: [HAM_TEXT, { title: 'Offer', body: 'Cheap watches, spam-check-test-spam' }] },
} satisfies Partial<Record<SchemaName, unknown>>;

function checkOperation(
  tag: string,
  summary: string,
  request: keyof typeof REQUEST_EXAMPLES,
  result: SchemaName,
  extra: object = {},
) {
  return {
    post: {
      tags: [tag],
      summary,
      security: [{ oauth2: ['spam:check'] }],
      parameters: [{ $ref: '#/components/parameters/RequestId' }],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: ref(request), example: REQUEST_EXAMPLES[request] } },
      },
      responses: {
        '200': { description: 'The verdict.', content: { 'application/json': { schema: ref(result) } } },
        ...Object.fromEntries(
          Object.entries(CHECK_ERRORS).map(([status, codes]) => [status, problemResponse(codes)]),
        ),
      },
      ...extra,
    },
  };
}

const ADMIN_ERRORS: Record<string, ErrorCode[]> = {
  '401': ['UNAUTHORIZED', 'INVALID_TOKEN'],
  '403': ['INSUFFICIENT_SCOPE'],
  '404': ['NOT_FOUND', 'CLIENT_NOT_FOUND'],
  '405': ['METHOD_NOT_ALLOWED'],
  '429': ['RATE_LIMITED'],
  '503': ['SERVICE_UNAVAILABLE'],
};

function adminOperation(
  summary: string,
  ok: { status: string; description: string; schema?: SchemaName },
  options: { request?: SchemaName; errors?: Record<string, ErrorCode[]>; parameters?: object[] } = {},
) {
  const errors = { ...ADMIN_ERRORS, ...options.errors };
  return {
    tags: ['Administration'],
    summary,
    security: [{ oauth2: ['spam:admin'] }],
    parameters: [{ $ref: '#/components/parameters/RequestId' }, ...(options.parameters ?? [])],
    ...(options.request
      ? { requestBody: { required: true, content: { 'application/json': { schema: ref(options.request) } } } }
      : {}),
    responses: {
      [ok.status]: {
        description: ok.description,
        ...(ok.schema ? { content: { 'application/json': { schema: ref(ok.schema) } } } : {}),
      },
      ...Object.fromEntries(
        Object.entries(errors).map(([status, codes]) => [status, problemResponse(codes)]),
      ),
    },
  };
}

const CLIENT_ID_PARAMETER = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The client id.',
  schema: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,100}$' },
};
const BODY_ERRORS: Record<string, ErrorCode[]> = {
  '400': ['MALFORMED_JSON', 'VALIDATION_FAILED'],
  '413': ['PAYLOAD_TOO_LARGE'],
  '415': ['UNSUPPORTED_MEDIA_TYPE'],
};

const STATS_QUERY_PARAMETERS = [
  {
    name: 'from',
    in: 'query',
    required: false,
    description: 'Start, ISO 8601; default `to` minus 7 days; at most 31 days before `to`.',
    schema: { type: 'string', format: 'date-time' },
  },
  {
    name: 'to',
    in: 'query',
    required: false,
    description: 'End, ISO 8601; default now.',
    schema: { type: 'string', format: 'date-time' },
  },
  {
    name: 'interval',
    in: 'query',
    required: false,
    schema: { type: 'string', enum: ['hour', 'day'], default: 'day' },
  },
];
const FEEDBACK_LIMIT_PARAMETER = {
  name: 'limit',
  in: 'query',
  required: false,
  description: 'How many reports (1..50).',
  schema: { type: 'integer', minimum: 1, maximum: 50, default: 20 },
};

/**
 * Trial checks as a client (the operator console's "try it"): the public check of that kind, run with the
 * client's settings and reports, not counted in its usage.
 */
function tryPaths(withId: { parameters: object[] }) {
  const trial = (kind: string, request: SchemaName, result: SchemaName) =>
    adminOperation(
      `Try a ${kind} check as the client: its settings apply; not counted in its usage`,
      { status: '200', description: `The ${kind} check's result.`, schema: result },
      { ...withId, request, errors: BODY_ERRORS },
    );
  return {
    '/api/v1/admin/clients/{id}/try/mail': { post: trial('mail', 'MailCheckRequest', 'MailResult') },
    '/api/v1/admin/clients/{id}/try/text': { post: trial('text', 'TextCheckRequest', 'TextResult') },
    '/api/v1/admin/clients/{id}/try/hybrid': {
      post: trial('hybrid', 'HybridCheckRequest', 'HybridResult'),
    },
  };
}

/** The administration API's clients and their settings (DESIGN.md §6.3). */
function adminClientPaths() {
  const withId = { parameters: [CLIENT_ID_PARAMETER] };
  return {
    '/api/v1/admin/clients': {
      get: adminOperation('List the clients (never a secret or its hash)', {
        status: '200',
        description: 'The clients, by id.',
        schema: 'ClientList',
      }),
      post: adminOperation(
        'Create a client; its generated secret is shown once',
        {
          status: '201',
          description: 'Created; `client_secret` is shown this once.',
          schema: 'ClientWithSecret',
        },
        { request: 'CreateClientRequest', errors: { ...BODY_ERRORS, '409': ['CLIENT_EXISTS'] } },
      ),
    },
    '/api/v1/admin/clients/{id}': {
      delete: adminOperation(
        'Delete a client: it is disabled, all its tokens are revoked at once, and its data is erased',
        { status: '204', description: 'Deleted.' },
        withId,
      ),
    },
    '/api/v1/admin/clients/{id}/secret': {
      post: adminOperation(
        'Rotate the secret of a client; the old one is refused at once',
        { status: '200', description: 'The new secret, shown this once.', schema: 'ClientWithSecret' },
        withId,
      ),
    },
    '/api/v1/admin/clients/{id}/settings': {
      get: adminOperation(
        "The client's settings (absent fields are the operator's defaults)",
        { status: '200', description: 'The stored settings document.', schema: 'ClientSettings' },
        withId,
      ),
      put: adminOperation(
        "Replace the client's settings; every replica applies them within 1 s",
        {
          status: '200',
          description:
            'The stored settings document; a webhook this PUT added carries its `secret`, this once.',
          schema: 'ClientSettingsAnswer',
        },
        { ...withId, request: 'ClientSettings', errors: BODY_ERRORS },
      ),
    },
  };
}

/** The administration API's usage, feedback and erasure (DESIGN.md §6.3, §7.5). */
function adminDataPaths() {
  return {
    '/api/v1/admin/clients/{id}/stats': {
      get: adminOperation(
        'Usage of a client: checks per kind and verdict, top reasons, feedback, latency, recent admin actions',
        { status: '200', description: 'The statistics (UTC intervals).', schema: 'ClientStats' },
        {
          parameters: [CLIENT_ID_PARAMETER, ...STATS_QUERY_PARAMETERS],
          errors: { '400': ['VALIDATION_FAILED'] },
        },
      ),
    },
    ...tryPaths({ parameters: [CLIENT_ID_PARAMETER] }),
    '/api/v1/admin/erasure': {
      post: adminOperation(
        'Erase what is stored about an address (every client) or about a client (GDPR Art. 17)',
        {
          status: '200',
          description:
            'Deleted; counts by store. Afterwards nothing stored is tied to the address or client ' +
            '(aggregate counts excepted). Logged as admin action `data.erase`.',
          schema: 'ErasureResult',
        },
        { request: 'ErasureRequest', errors: BODY_ERRORS },
      ),
    },
    '/api/v1/admin/clients/{id}/feedback': {
      get: adminOperation(
        "The client's most recent feedback reports, newest first (what was reported, never the content)",
        {
          status: '200',
          description: 'The reports of the last 32 days, at most 50.',
          schema: 'RecentFeedback',
        },
        {
          parameters: [CLIENT_ID_PARAMETER, FEEDBACK_LIMIT_PARAMETER],
          errors: { '400': ['VALIDATION_FAILED'] },
        },
      ),
    },
  };
}

const WEBHOOK_ID_PARAMETER = {
  name: 'webhook_id',
  in: 'path',
  required: true,
  description: 'The webhook id, as in the client settings.',
  schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,40}$' },
};

/**
 * A client's webhooks: deliveries are POSTs of `WebhookPayload` with the Standard Webhooks headers
 * `webhook-id`, `webhook-timestamp` and `webhook-signature`.
 */
function adminWebhookPaths() {
  const withIds = { parameters: [CLIENT_ID_PARAMETER, WEBHOOK_ID_PARAMETER] };
  return {
    '/api/v1/admin/clients/{id}/webhooks/{webhook_id}/secret': {
      post: adminOperation(
        'Rotate the signing secret of a webhook; the old one signs alongside the new one for 24 h',
        { status: '200', description: 'The new secret, shown this once.', schema: 'WebhookSecretRotation' },
        withIds,
      ),
    },
    '/api/v1/admin/clients/{id}/webhooks/{webhook_id}/deliveries': {
      get: adminOperation(
        "The webhook's last 50 deliveries, newest first: event, status, attempts, last answer",
        { status: '200', description: 'The deliveries.', schema: 'WebhookDeliveries' },
        withIds,
      ),
    },
    '/api/v1/admin/clients/{id}/webhooks/{webhook_id}/test': {
      post: adminOperation(
        'Send a test event (`webhook.test`) to the webhook, whatever its events',
        {
          status: '202',
          description: 'Queued; the delivery id is its `webhook-id`.',
          schema: 'WebhookTestAnswer',
        },
        withIds,
      ),
    },
  };
}

/** The administration API (DESIGN.md §6.3). */
function adminPaths() {
  return { ...adminClientPaths(), ...adminDataPaths(), ...adminWebhookPaths() };
}

function oauthOperation(summary: string, request: SchemaName, ok: object) {
  return {
    post: {
      tags: ['Tokens'],
      summary,
      requestBody: {
        required: true,
        content: { 'application/x-www-form-urlencoded': { schema: ref(request) } },
      },
      responses: {
        '200': ok,
        '400': {
          description: 'RFC 6749 §5.2 error.',
          content: { 'application/json': { schema: ref('OAuthError') } },
        },
        '401': {
          description: '`invalid_client`; with `WWW-Authenticate` when HTTP Basic was used.',
          content: { 'application/json': { schema: ref('OAuthError') } },
        },
        '429': { description: 'Too many failed attempts; see Retry-After.' },
        '503': { description: 'Token store unavailable; see Retry-After.' },
      },
    },
  };
}

function apiInfo(version: string) {
  return {
    title: 'Spam check API',
    version,
    description: [
      'Decides whether an e-mail address, a text, or both are spam, and explains why.',
      'Every path may be preceded by a language code: `/deapi/v1/spam/mail` or `/de/api/v1/spam/mail`;',
      'the language picks the language of human-readable messages. Unknown prefixes are 404.',
      "A site's server gets its token with `grant_type=client_credentials` (no user, no refresh token).",
      'Checks may carry the form `context` (`honeypot`, `seconds_to_submit`, `user_agent`): a filled honeypot',
      'is spam (`FORM_HONEYPOT_FILLED`), a submission faster than the configured minimum',
      '(`FORM_SUBMITTED_TOO_FAST`) or from an automation user agent (`FORM_BOT_USER_AGENT`) at least',
      'suspicious; the context is never stored.',
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
      name: 'Tokens',
      description:
        'OAuth 2.0 password and refresh_token grants (form-encoded) for confidential first-party clients; ' +
        'revocation (RFC 7009). "Authorize" on this page uses the password grant.',
    },
    { name: 'Administration', description: 'Clients, their settings and usage (scope `spam:admin`).' },
  ];
}

/** The checks, feedback and token paths (the administration API is in `adminPaths`). */
function publicPaths() {
  return {
    '/api/v1/spam/mail': checkOperation(
      'Checks',
      'Check an e-mail address',
      'MailCheckRequest',
      'MailResult',
    ),
    '/api/v1/spam/text': checkOperation(
      'Checks',
      'Check a text (title, body, optional subtitle)',
      'TextCheckRequest',
      'TextResult',
    ),
    '/api/v1/spam/hybrid-check': checkOperation(
      'Checks',
      'Check an e-mail address and a text together',
      'HybridCheckRequest',
      'HybridResult',
      {
        parameters: [
          { $ref: '#/components/parameters/RequestId' },
          { $ref: '#/components/parameters/StepByStep' },
        ],
      },
    ),
    '/api/v1/spam/feedback': checkOperation(
      'Feedback',
      'Report a verdict as wrong (by check id, address or text); learnt at once, for this client only',
      'FeedbackRequest',
      'FeedbackResult',
      {
        description:
          '404 `CHECK_NOT_FOUND`: the check id is unknown, expired or of another client. 429 `RATE_LIMITED` ' +
          'also when the client has two seconds of text reports waiting (each text detector applies one ' +
          "client's text reports at `TEXT_FEEDBACK_REPORTS_PER_SECOND`, default 20 a second); nothing of a " +
          'refused report is stored: send it again after `Retry-After`.',
      },
    ),
    '/api/v1/spam/mail/batch': checkOperation(
      'Batch checks',
      `Check 1 to ${BATCH_LIMITS.mailItems} e-mail addresses`,
      'MailBatchRequest',
      'MailBatchResult',
      { description: BATCH_DESCRIPTION },
    ),
    '/api/v1/spam/text/batch': checkOperation(
      'Batch checks',
      `Check 1 to ${BATCH_LIMITS.textItems} texts`,
      'TextBatchRequest',
      'TextBatchResult',
      { description: BATCH_DESCRIPTION },
    ),
    '/oauth/token': oauthOperation(
      "Obtain or refresh tokens (client_credentials for a site's server; password and refresh_token for a user)",
      'TokenRequest',
      {
        description: 'Tokens. Sent with `Cache-Control: no-store`.',
        content: { 'application/json': { schema: ref('TokenResponse') } },
      },
    ),
    '/oauth/revoke': oauthOperation('Revoke an access or refresh token (RFC 7009)', 'RevokeRequest', {
      description: 'Revoked, or the token was unknown.',
    }),
  };
}

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
        flows: {
          password: {
            tokenUrl: '/oauth/token',
            refreshUrl: '/oauth/token',
            scopes: {
              'spam:check': 'Run checks.',
              'spam:admin': 'Manage clients, their settings, and read their usage (the admin API).',
            },
          },
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
    paths: { ...publicPaths(), ...adminPaths() },
    components: apiComponents(),
  };
}
