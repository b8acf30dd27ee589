/** The path of a client's own site rules in the OpenAPI document. */
import type { ErrorCode } from '../errors';
import { problemResponse, ref } from './schemas';

const SITE_RULES_ERRORS: Record<string, ErrorCode[]> = {
  '401': ['UNAUTHORIZED', 'INVALID_TOKEN'],
  '403': ['INSUFFICIENT_SCOPE'],
  '405': ['METHOD_NOT_ALLOWED'],
  '429': ['RATE_LIMITED'],
  '503': ['SERVICE_UNAVAILABLE'],
};
const BODY_ERRORS: Record<string, ErrorCode[]> = {
  '400': ['MALFORMED_JSON', 'VALIDATION_FAILED'],
  '413': ['PAYLOAD_TOO_LARGE'],
  '415': ['UNSUPPORTED_MEDIA_TYPE'],
};

/** The calling client's site rules (`text_rules` of its settings), read and set by the client itself. */
function siteRulesOperation(summary: string, withBody: boolean) {
  const errors = withBody ? { ...SITE_RULES_ERRORS, ...BODY_ERRORS } : SITE_RULES_ERRORS;
  return {
    tags: ['Site rules'],
    summary,
    security: [{ oauth2: ['spam:check'] }],
    parameters: [{ $ref: '#/components/parameters/RequestId' }],
    ...(withBody
      ? {
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: ref('TextRules'),
                example: { allowed_languages: ['de', 'fr'], max_links: 2 },
              },
            },
          },
        }
      : {}),
    responses: {
      '200': {
        description: 'The rules as stored (`{}`: none).',
        content: { 'application/json': { schema: ref('TextRules') } },
      },
      ...Object.fromEntries(
        Object.entries(errors).map(([status, codes]) => [status, problemResponse(codes)]),
      ),
    },
  };
}

export function siteRulesPaths() {
  return {
    '/api/v1/settings/text-rules': {
      get: siteRulesOperation('Your site rules for texts', false),
      put: siteRulesOperation(
        'Replace your site rules for texts (the rest of your settings stays); every replica applies them within 1 s',
        true,
      ),
    },
  };
}
