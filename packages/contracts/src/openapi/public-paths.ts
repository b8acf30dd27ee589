/** The checks, feedback and token paths of the OpenAPI document. */
import type { ErrorCode } from '../errors';
import { BATCH_LIMITS } from '../batch';
import { REVIEW_LIMITS } from '../review';
import { checkListOperation } from './review-paths';
import { problemResponse, ref, type SchemaName } from './schemas';

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
  result: SchemaName | SchemaName[],
  extra: object = {},
) {
  const schema = Array.isArray(result) ? { oneOf: result.map(ref) } : ref(result);
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
        '200': { description: 'The verdict.', content: { 'application/json': { schema } } },
        ...Object.fromEntries(
          Object.entries(CHECK_ERRORS).map(([status, codes]) => [status, problemResponse(codes)]),
        ),
      },
      ...extra,
    },
  };
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
/** The checks, feedback and token paths (the administration API is in `adminPaths`). */
export function publicPaths() {
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
      ['FeedbackResult', 'FeedbackReportsResult'],
      {
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { oneOf: [ref('FeedbackRequest'), ref('FeedbackReports')] },
              example: REQUEST_EXAMPLES.FeedbackRequest,
            },
          },
        },
        description:
          `With \`reports\` (1 to ${REVIEW_LIMITS.reports} \`{check_id, label}\`), each report is applied or refused on ` +
          'its own: the answer (200) lists, in request order, its result or `{error: <problem>}`. ' +
          '404 `CHECK_NOT_FOUND`: the check id is unknown, expired or of another client. 429 `RATE_LIMITED` ' +
          'also when the client has two seconds of text reports waiting (each text detector applies one ' +
          "client's text reports at `TEXT_FEEDBACK_REPORTS_PER_SECOND`, default 20 a second); nothing of a " +
          'refused report is stored: send it again after `Retry-After`.',
      },
    ),
    '/api/v1/checks': checkListOperation(ref('CheckList'), problemResponse),
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
