/** The review list's path of the OpenAPI document. */
import type { ErrorCode } from '../errors';
import { REASON_CODES } from '../reasons';
import { REVIEW_LIMITS } from '../review';

const ERRORS: Record<string, ErrorCode[]> = {
  '400': ['VALIDATION_FAILED'],
  '401': ['UNAUTHORIZED', 'INVALID_TOKEN'],
  '403': ['INSUFFICIENT_SCOPE'],
  '405': ['METHOD_NOT_ALLOWED'],
  '429': ['RATE_LIMITED'],
  '503': ['SERVICE_UNAVAILABLE'],
};

const query = (name: string, description: string, schema: object, extra: object = {}) => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
  ...extra,
});

/** `GET /api/v1/checks`: its query parameters are written out, as OpenAPI describes a query by parameter. */
export function checkListOperation(page: object, problemResponse: (codes: ErrorCode[]) => object) {
  const verdicts = { type: 'string', enum: ['ham', 'suspicious', 'spam'] };
  return {
    get: {
      tags: ['Review'],
      summary: "The client's recent checks, newest first, for review and correction",
      description:
        "Only the calling client's checks (mail, text, hybrid and batch items) of the last `FEEDBACK_RETENTION_SECONDS`. " +
        'A page reads a bounded number of checks: with narrow filters it may hold fewer than `limit` items (even none) ' +
        'and still a `next_cursor`. A cursor is valid for the query it came from, for the retention time. ' +
        '`content` is shown only when the client keeps content (`review.keep_content_days`).',
      security: [{ oauth2: ['spam:check'] }],
      parameters: [
        { $ref: '#/components/parameters/RequestId' },
        query(
          'verdict',
          'Repeatable: any of the verdicts given.',
          { type: 'array', items: verdicts },
          {
            style: 'form',
            explode: true,
          },
        ),
        query('kind', 'The kind of check.', { type: 'string', enum: ['mail', 'text', 'hybrid'] }),
        query('reason', 'A reason code: checks with this reason.', {
          type: 'string',
          enum: [...REASON_CODES],
        }),
        query('reported', 'Only checks the client has reported (true) or not (false).', {
          type: 'string',
          enum: ['true', 'false'],
        }),
        query('since', 'RFC 3339: checks at or after it.', { type: 'string', format: 'date-time' }),
        query('until', 'RFC 3339: checks before it.', { type: 'string', format: 'date-time' }),
        query('limit', 'Items per page.', {
          type: 'integer',
          minimum: 1,
          maximum: REVIEW_LIMITS.pageItems,
          default: REVIEW_LIMITS.defaultPageItems,
        }),
        query('cursor', 'The `next_cursor` of the previous page (opaque).', { type: 'string' }),
      ],
      responses: {
        '200': { description: 'A page of the list.', content: { 'application/json': { schema: page } } },
        ...Object.fromEntries(
          Object.entries(ERRORS).map(([status, codes]) => [status, problemResponse(codes)]),
        ),
      },
    },
  };
}
