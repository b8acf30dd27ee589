/** The administration API's paths of the OpenAPI document. */
import type { ErrorCode } from '../errors';
import { REVIEW_LIMITS } from '../review';
import { checkListOperation } from './review-paths';
import { problemResponse, ref, type SchemaName } from './schemas';

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

/** The administration API's clients and their settings (`/api/v1/admin/clients...`). */
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

/** The administration API's usage, feedback and erasure. */
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

/**
 * A client's review as the operator console shows it: the client's list (the query of `GET /api/v1/checks`)
 * and reports made as the client (the body and answers of `POST /api/v1/spam/feedback`).
 */
function adminReviewPaths(recentFeedback: object) {
  const list = checkListOperation(ref('CheckList'), problemResponse).get;
  const report = adminOperation(
    'Report as the client: learnt, counted, listed and sent to its webhooks exactly as its own report',
    { status: '200', description: "The result, or with `reports` each report's result or problem." },
    {
      parameters: [CLIENT_ID_PARAMETER],
      errors: { ...BODY_ERRORS, '404': ['NOT_FOUND', 'CLIENT_NOT_FOUND', 'CHECK_NOT_FOUND'] },
    },
  );
  return {
    '/api/v1/admin/clients/{id}/checks': {
      get: {
        ...adminOperation(
          "The client's checks, newest first, as the client lists them with `GET /api/v1/checks`",
          { status: '200', description: 'A page of the list.', schema: 'CheckList' },
          {
            parameters: [CLIENT_ID_PARAMETER, ...list.parameters.slice(1)],
            errors: { '400': ['VALIDATION_FAILED'] },
          },
        ),
        description: list.description,
      },
    },
    '/api/v1/admin/clients/{id}/feedback': {
      ...recentFeedback,
      post: {
        ...report,
        description: `One report, or \`reports\` (1 to ${REVIEW_LIMITS.reports} \`{check_id, label}\`) each applied or refused on its own, as \`POST /api/v1/spam/feedback\`.`,
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: { oneOf: [ref('FeedbackRequest'), ref('FeedbackReports')] } },
          },
        },
        responses: {
          ...report.responses,
          '200': {
            description: "The result, or with `reports` each report's result or problem, in request order.",
            content: {
              'application/json': {
                schema: { oneOf: [ref('FeedbackResult'), ref('FeedbackReportsResult')] },
              },
            },
          },
        },
      },
    },
  };
}

/** The administration API: its clients, their data, their review and their webhooks. */
export function adminPaths() {
  const data = adminDataPaths();
  return {
    ...adminClientPaths(),
    ...data,
    ...adminReviewPaths(data['/api/v1/admin/clients/{id}/feedback']),
    ...adminWebhookPaths(),
  };
}
